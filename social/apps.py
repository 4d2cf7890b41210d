from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Follows, blocks and who is online (issue 37). Low in the layering: it knows only users,
    so matches, quick play and notifications can all ask it whether two people may meet."""

    name = "social"
    verbose_name = "Friends"
