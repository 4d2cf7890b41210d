"""The catalogue pages in both languages, accounts and the admin."""

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def cobra(catalogue):
    return catalogue.get(name="Cobra Flash")


@pytest.mark.parametrize("lang, word", [("hu", "Keresés"), ("en", "Search")])
def test_card_list_in_both_languages(client, catalogue, lang, word):
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'lang="{lang}"' in html
    assert word in html
    assert html.count('class="card-face') == 30  # one page


def test_hungarian_and_english_names_on_card_faces(client, catalogue):
    card = catalogue.get(name="Halálszárny")
    hu = client.get(f"/hu/cards/{card.code}/").content.decode()
    en = client.get(f"/en/cards/{card.code}/").content.decode()
    assert '<h1 id="card-title">Halálszárny' in hu
    assert f'<h1 id="card-title">{card.name_en}' in en
    assert card.text_hu in hu or not card.text_hu


def test_search_box_query(client, catalogue):
    response = client.get("/en/", {"q": "t:ship r:zarg cost<=3"})
    assert response.status_code == 200
    expected = catalogue.filter(type="ship", race="zarg", credit_cost__lte=3)
    for card in expected[:30]:
        assert card.code in response.content.decode()


def test_malformed_search_is_a_400_page_with_the_reason(client, catalogue):
    response = client.get("/en/", {"q": "cost<=abc"})
    assert response.status_code == 400
    assert 'id="search-error"' in response.content.decode()


def test_facets_sorting_and_paging(client, catalogue):
    response = client.get("/en/", {"race": ["human", "zarg"], "sort": "-cost", "page": 2})
    assert response.status_code == 200
    page = response.context["page"]
    costs = [c.credit_cost for c in page if c.credit_cost is not None]
    assert costs == sorted(costs, reverse=True)
    assert all(c.race in ("human", "zarg") for c in page)
    assert page.paginator.count == catalogue.filter(race__in=["human", "zarg"]).count()
    assert page.number == 2


def test_page_beyond_the_end_shows_the_last_page(client, catalogue):
    response = client.get("/en/", {"page": 999})
    assert response.status_code == 200


def test_card_detail_shows_stats_rulings_and_related(client, cobra):
    response = client.get(f"/en/cards/{cobra.code}/")
    html = response.content.decode()
    assert response.status_code == 200
    for label in ("Speed", "Firepower", "Armour", "Bombardment"):
        assert label in html
    assert response.context["related"]
    assert response.context["rulings"] == [], "Cobra Flash is in the design notes only"


def test_unknown_card_is_a_404_page(client, catalogue):
    response = client.get("/en/cards/KG1-999/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_search_help_page(client):
    for lang in ("hu", "en"):
        response = client.get(f"/{lang}/help/search/")
        assert response.status_code == 200
        assert "cost&lt;=3" in response.content.decode() or "cost<=3" in response.content.decode()


def test_language_switch_keeps_the_page(client, cobra):
    response = client.post("/i18n/setlang/", {"language": "en", "next": f"/hu/cards/{cobra.code}/"})
    assert response.status_code == 302
    assert response["Location"] == f"/en/cards/{cobra.code}/"


def test_sign_up_log_in_log_out(client):
    response = client.post(
        "/en/accounts/signup/",
        {
            "username": "alice",
            "email": "alice@example.com",
            "password1": "kolonia-45-lap",
            "password2": "kolonia-45-lap",
        },
    )
    assert response.status_code == 302
    assert User.objects.filter(username="alice").exists()
    assert client.get("/en/").context["user"].username == "alice"
    client.post("/en/accounts/logout/")
    assert not client.get("/en/").context["user"].is_authenticated
    assert (
        client.post(
            "/en/accounts/login/", {"username": "alice", "password": "kolonia-45-lap"}
        ).status_code
        == 302
    )


def test_bad_sign_up_is_400_with_the_reason(client):
    response = client.post(
        "/en/accounts/signup/", {"username": "bob", "password1": "x", "password2": "y"}
    )
    assert response.status_code == 400
    assert "password" in response.content.decode().lower()


def test_admin_lists_every_model(admin_client, catalogue):
    from django.contrib import admin

    for model in admin.site._registry:
        meta = model._meta
        url = f"/en/admin/{meta.app_label}/{meta.model_name}/"
        assert admin_client.get(url).status_code == 200, url
    card = catalogue.first()
    assert admin_client.get(f"/en/admin/cards_data/card/{card.pk}/change/").status_code == 200


@pytest.mark.parametrize("lang, name", [("hu", "Űrcápa"), ("en", "Space Shark")])
def test_card_page_names_the_opposing_race_in_words(client, catalogue, lang, name):
    """R 9.3: a triciplite card says which race cannot share its colony, by the race's name
    in the page's language (it showed the code "space_shark")."""
    card = catalogue.filter(race="triciplite").first()
    html = client.get(f"/{lang}/cards/{card.code}/").content.decode()
    assert f'?race=space_shark">{name}</a>' in html
    assert ">space_shark<" not in html
