from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """One notification service with its channels (the site's bell, e-mail, a webhook) and
    each person's choices (issue 37). Above matches, tournaments and social: it listens to
    their signals and they know nothing of it."""

    name = "notifications"
    verbose_name = "Notifications"
