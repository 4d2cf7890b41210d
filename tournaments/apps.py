from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from matches.signals import match_finished

        from .online import on_match_finished
        from .playoff import advance_after_result
        from .rounds import repair_after_result
        from .signals import result_confirmed

        # a tournament game on the site records its result when it ends (online.py)
        match_finished.connect(on_match_finished, dispatch_uid="tournaments-online-game")
        # what follows a confirmed result: the playoff's next sets, a Swiss draft again
        result_confirmed.connect(advance_after_result, dispatch_uid="tournaments-playoff")
        result_confirmed.connect(repair_after_result, dispatch_uid="tournaments-repair-draft")
