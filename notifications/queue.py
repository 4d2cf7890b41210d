"""Running a notifications task: on a worker through the broker, or, in the embedded
default (eager Celery), here and now with `apply`, which makes no broker connection
(`delay` under eager Celery still sets one up and logs kombu's "no hostname" warning)."""

from celery import current_app


def run_task(name: str, *args) -> None:
    """The registered task `name` ("notifications.tasks.deliver") with `args` (ids)."""
    task = current_app.tasks[name]
    if task.app.conf.task_always_eager:
        task.apply(args=args)
    else:
        task.apply_async(args)
