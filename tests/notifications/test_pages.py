"""The notifications' pages (issue 37): the settings matrix in both languages, its save and
its refusals (a clear 400 with a sentence), the bell in the top bar with its count, the list,
reading, the player's own page's link, and the person's language remembered at login."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications import services
from notifications.kinds import CHALLENGE, EMAIL, FRIEND_TABLE, KINDS, SITE, WEBHOOK
from notifications.models import Notification
from notifications.push import unread_count

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_client(client, anna):
    client.force_login(anna)
    return client


def ring(person, n=1):
    for i in range(n):
        services.notify(person, CHALLENGE, url="/en/play/", challenger=f"rival{i}")


def test_the_settings_page_in_each_language(anna_client):
    hu = anna_client.get("/hu/notifications/settings/").content.decode()
    assert (
        "Értesítési beállítások" in hu and "Kihívást kaptál" in hu and "Az oldalon (csengő)" in hu
    )
    assert "anna@example.org" in hu
    assert "A challenge to you" not in hu and "Notification settings" not in hu
    en = anna_client.get("/en/notifications/settings/").content.decode()
    assert "Notification settings" in en and "A challenge to you" in en
    assert "Kihívást" not in en and "csengő" not in en


def test_saving_the_matrix_and_the_language(anna_client, anna):
    form = {f"{CHALLENGE}__{SITE}": "on", f"{FRIEND_TABLE}__{EMAIL}": "on", "webhook_url": ""}
    response = anna_client.post("/en/notifications/settings/", form)
    assert response.status_code == 302
    prefs = services.settings_for(anna)
    assert prefs.chosen(CHALLENGE) == [SITE] and prefs.chosen(FRIEND_TABLE) == [EMAIL]
    assert all(prefs.chosen(kind) == [] for kind in KINDS if kind not in (CHALLENGE, FRIEND_TABLE))
    assert prefs.language == "en"  # the page's language is the person's from now on
    assert b'id="settings-saved"' in anna_client.get(response["Location"]).content


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://example.org/hook", "starting with https://"),
        ("https://127.0.0.1/hook", "not on the public internet"),
        ("https://10.1.2.3:8443/hook", "not on the public internet"),
        ("https://[::1]/hook", "not on the public internet"),
        ("hook", "starting with https://"),
        ("https://example.org:99999/hook", "starting with https://"),  # a port past 65535
        ("https://[::1/hook", "starting with https://"),  # urlsplit: "Invalid IPv6 URL"
    ],
)
def test_a_webhook_url_the_server_must_not_post_to_is_refused(anna_client, anna, url, words):
    """Server-side request forgery: http, loopback and private addresses are refused unless
    the setting allows them (it is off here, as in production)."""
    form = {f"{CHALLENGE}__{WEBHOOK}": "on", "webhook_url": url}
    response = anna_client.post("/en/notifications/settings/", form)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert services.settings_for(anna).webhook_url == ""


def test_a_ticked_webhook_without_a_url_is_refused_with_a_sentence(anna_client):
    response = anna_client.post("/hu/notifications/settings/", {f"{CHALLENGE}__{WEBHOOK}": "on"})
    assert response.status_code == 400
    assert "Add meg a webhook címét" in response.content.decode()


def test_a_discord_webhook_goes_through_apprises_discord_plugin(settings):
    from apprise import Apprise

    from notifications.webhooks import apprise_url

    discord = "https://discord.com/api/webhooks/123456789/abc-DEF_ghi"
    assert apprise_url(discord) == discord
    assert type(Apprise.instantiate(apprise_url(discord))).__name__ == "NotifyDiscord"
    plain = apprise_url("https://hooks.example.org/kgk?room=7")
    assert plain.startswith("jsons://hooks.example.org/kgk?-room=7&")
    json_plugin = Apprise.instantiate(plain)
    assert type(json_plugin).__name__ == "NotifyJSON" and json_plugin.redirects is False


def test_the_bell_shows_the_count_and_the_newest(anna_client, anna):
    ring(anna, 3)
    page = anna_client.get("/hu/").content.decode()
    assert 'id="bell-count">3<' in page
    assert "rival2 kihívott egy játszmára." in page
    assert 'src="/static/js/notifications/bell.js"' in page and 'type="module"' in page


def bell_queries(client, url):
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in seen.captured_queries if "notifications_notification" in q["sql"]]


def test_a_page_reads_the_bell_once_the_list_and_the_count(anna_client, anna):
    ring(anna, 2)
    anna_client.get("/en/")  # the session's and the language's first-request writes
    for url in ("/en/", "/en/friends/", "/hu/play/"):
        reads = bell_queries(anna_client, url)
        assert len(reads) == 2, reads
        assert sum("COUNT(*)" in sql for sql in reads) == 1, reads


def test_the_unread_count_reads_the_partial_index_of_unread_rows(anna):
    """The count and "mark read" ask for unread rows only (notifications/push.py): the index
    notification_unread holds just those, so a person's read history is never scanned."""
    ring(anna, 3)
    with CaptureQueriesContext(connection) as seen:
        assert unread_count(anna.pk) == 3
    (sql,) = [q["sql"] for q in seen.captured_queries]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # a 3-row table: the planner would scan it
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}")
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "notification_unread" in plan, plan


def test_no_bell_for_a_visitor(client):
    assert b'id="bell"' not in client.get("/en/").content


def test_following_a_notification_reads_it_in_the_pages_language(anna_client, anna):
    ring(anna)
    note = Notification.objects.get(user=anna)
    response = anna_client.get(f"/hu/notifications/{note.pk}/go/")
    assert response.status_code == 302 and response["Location"] == "/hu/play/"
    note.refresh_from_db()
    assert note.read_at is not None


def test_someone_elses_notification_is_a_404(anna_client, ben):
    ring(ben)
    note = Notification.objects.get(user=ben)
    assert anna_client.get(f"/en/notifications/{note.pk}/go/").status_code == 404
    for bad in ("x1", "²", "9" * 30, ""):  # "²" passes isdigit(); "" is not "mark all"
        assert anna_client.post("/en/notifications/read/", {"id": bad}).status_code == 400
    note.refresh_from_db()
    assert note.read_at is None


def test_the_list_and_mark_all_read(anna_client, anna):
    ring(anna, 2)
    page = anna_client.get("/en/notifications/").content.decode()
    listing = page.split('id="notification-list"', 1)[1]
    assert listing.count("challenged you to a game.") == 2
    anna_client.post("/en/notifications/read/")
    assert Notification.objects.filter(user=anna, read_at=None).count() == 0


def test_the_players_own_page_links_to_the_settings(anna_client, ben):
    assert b'id="notification-settings-link"' in anna_client.get("/en/players/anna/").content
    assert b'id="notification-settings-link"' not in anna_client.get("/en/players/ben/").content


def test_the_language_is_remembered_at_login(client, ben):
    assert services.settings_for(ben).language == "en"
    client.get("/hu/accounts/login/")
    response = client.post("/hu/accounts/login/", {"username": "ben", "password": "pw-ben-12345"})
    assert response.status_code == 302
    assert services.settings_for(ben).language == "hu"
