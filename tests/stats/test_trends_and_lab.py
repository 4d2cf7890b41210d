"""The metagame's trend as a server-drawn line chart with localised month labels, and the
deck lab's simulated figure beside a card's real figures."""

import datetime

from django.utils import translation

from decklab.models import LabChunk, LabRun
from decks.services import save_deck
from stats.charts import line_chart
from stats.recording import record_game

NOV, DEC = datetime.date(2026, 11, 1), datetime.date(2026, 12, 1)


def test_the_line_chart_s_geometry_by_hand():
    """Two months across the 318-unit plot (x 34 to 352), shares on a 164-unit axis
    (y 10 is 100 %, y 174 is 0 %): 50 % is y 92, 25 % is y 133."""
    with translation.override("en"):
        chart = line_chart([NOV, DEC], {"zarg": [0.5, 0.25]}, {"zarg": "Zarg"})
    assert chart.lines[0].points == "34,92 352,133"
    # the right edge's label ends there: it does not run past the chart
    assert chart.x_ticks == [(34, "Nov 2026", "middle"), (352, "Dec 2026", "end")]
    assert chart.y_ticks[0] == (174.0, "0%") and chart.y_ticks[-1] == (10.0, "100%")


def test_month_labels_are_localised_and_at_most_four():
    months = [datetime.date(2026, m, 1) for m in range(1, 13)]
    with translation.override("hu"):
        chart = line_chart(months, {"": [0.0] * 12}, {"": "—"})
    assert [label for _x, label, _anchor in chart.x_ticks] == [
        "2026. jan.", "2026. ápr.", "2026. júl.", "2026. okt."
    ]  # fmt: skip


def test_the_metagame_draws_the_trend_in_both_languages(three_games, client):
    three_games[2].finished = three_games[2].finished.replace(month=10)
    three_games[2].save()
    for match in three_games:
        record_game(match.pk)
    en = client.get("/en/stats/?from=2026-10&to=2026-11").content.decode()
    chart = en.split('id="trend"')[1].split("</section>")[0]
    assert "<svg" in chart and ">Oct 2026</text>" in chart and ">Nov 2026</text>" in chart
    assert chart.count("<polyline") == 2  # zarg and xeno
    # October's one game and November's two: each race one colony of each, 50 % (y 92)
    assert chart.count('points="34,92 352,92"') == 2
    september = client.get("/en/stats/?from=2026-09&to=2026-11").content.decode()
    # September had no games: no point there (not a fall to 0 %): x 34 is September now
    assert september.count('points="193,92 352,92"') == 2
    hu = client.get("/hu/stats/?from=2026-10&to=2026-11").content.decode()
    assert ">2026. okt.</text>" in hu and ">2026. nov.</text>" in hu and "Nov 2026" not in hu


def test_the_deck_lab_s_figure_sits_beside_a_card_s_real_figures(codes, alice, client):
    public = save_deck(alice, name="Lab", cards=[(codes["a1"], 3)], is_public=True)
    secret = save_deck(alice, name="Hidden", cards=[(codes["a1"], 3)])
    page = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    assert 'id="lab-figure"' not in page  # no run yet
    for deck, wins in ((public, (6, 4)), (secret, (10, 10))):
        run = LabRun.objects.create(
            deck=deck, owner=alice, colony=[[codes["a1"], 3]], games=20, status=LabRun.DONE
        )
        LabChunk.objects.create(
            run=run, index=0, opponent="ref", first=0, games=20, status=LabChunk.DONE,
            play_games=10, play_wins=wins[0], draw_games=10, draw_wins=wins[1],
        )  # fmt: skip
    page = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    lab = page.split('id="lab-figure"')[1].split("</p>")[0]
    # the public deck's run only: 10 of 20 = 50 %; the private one's is its owner's
    assert "the 1 deck with this card" in lab and ">50%<" in lab and "20 games" in lab
    client.force_login(alice)
    mine = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    assert "the 2 decks with this card" in mine and ">75%<" in mine  # 30 of 40
