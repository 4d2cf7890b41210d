"""Helpers the browser tests share (imported relatively: `from .browser_kit import ...`)."""

PASSWORD = "pw-browser-12345"  # every user the match and tournament browser tests make


def log_in(page, live_server, username, next_path):
    page.goto(f"{live_server.url}/en/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")
    assert page.url == f"{live_server.url}{next_path}"


def no_horizontal_scroll(page):
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    assert widths["scroll"] <= widths["inner"], widths
