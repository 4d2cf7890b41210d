from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """One notification service with its channels (the site's bell, e-mail, a webhook) and
    each person's choices (issue 37). Above matches, tournaments and social: it listens to
    their signals and they know nothing of it."""

    name = "notifications"
    verbose_name = "Notifications"

    def ready(self):
        # imported when the app registry is ready (the receivers import models and tasks)
        from django.contrib.auth.signals import user_logged_in

        from matches import signals as matches_signals
        from tournaments import signals as tournaments_signals

        from . import receivers

        for signal, receiver in (
            (matches_signals.challenge_sent, receivers.on_challenge_sent),
            (matches_signals.table_opened, receivers.on_table_opened),
            (matches_signals.turn_waiting, receivers.on_turn_waiting),
            (tournaments_signals.round_published, receivers.on_round_published),
            (tournaments_signals.result_to_confirm, receivers.on_result_to_confirm),
            (user_logged_in, receivers.on_login),
        ):
            signal.connect(receiver, dispatch_uid=f"notifications.{receiver.__name__}")
