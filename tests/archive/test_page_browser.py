"""The replay page in a real browser: Debian's Chromium, headless, driven through its
chromedriver by Selenium. The tests step through a page with the keyboard, the move list, the
buttons and the play button, and check the board and the highlighted move at every stop; and
that the page fits a phone's width.

They are skipped, saying why, when Chromium, its driver or Selenium cannot be had (``.ci/run``
installs Debian's ``chromium`` and ``chromium-driver`` when missing; Selenium is a dev extra).
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from geniusbot.archive.page import page_of, png_uri
from geniusbot.archive.page_steps import PageMatch, record_steps
from geniusbot.record import parse_record

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

EXAMPLES = Path(__file__).resolve().parents[2] / "geniusbot" / "examples"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
#: How long a test waits for the page to reach a step (a bound, not a measure: it returns as soon as it is there).
WAIT = 10


def _needs() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (Debian's 'chromium' package; .ci/run installs it with apt-get)"
    if not Path(CHROMEDRIVER).exists():
        return "chromedriver is not installed (Debian's 'chromium-driver' package; .ci/run installs it with apt-get)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _needs()
    if reason is not None:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1200,900")
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"Chromium did not start through chromedriver: {error.msg}")
    try:
        yield driver
    finally:
        driver.quit()


def gathered(name: str) -> PageMatch:
    return record_steps(parse_record((EXAMPLES / f"{name}.txt").read_text(encoding="utf-8")))


def opened(browser: Any, tmp_path: Path, match: PageMatch, *, width: int = 1200, anchor: str = "") -> Any:
    path = tmp_path / "page.html"
    path.write_text(page_of(match), encoding="utf-8")
    browser.set_window_size(width, 900)
    browser.get(path.as_uri() + anchor)
    wait_for(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")
    return browser.find_element("tag name", "body")


def wait_for(browser: Any, condition: Any, message: str = "") -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT, poll_frequency=0.02).until(condition, message)


def src_of(match: PageMatch, n: int) -> str:
    picture = match.steps[n].picture
    assert picture is not None
    return png_uri(picture)


def shows(browser: Any, match: PageMatch, n: int, entry: str | None = None) -> None:
    """The page is at step ``n``: its board is step n's picture, and step n alone is highlighted."""
    wait_for(
        browser,
        lambda d: d.find_element("tag name", "body").get_attribute("data-step") == str(n),
        f"the page did not reach step {n}",
    )
    assert browser.find_element("id", "board-img").get_attribute("src") == src_of(match, n)
    current = browser.find_elements("css selector", "#moves li.current")
    assert [li.get_attribute("data-step") for li in current] == [str(n)]
    assert current[0].find_element("tag name", "a").get_attribute("aria-current") == "step"
    status = browser.find_element("id", "status").text
    assert status.startswith(f"Step {n} of {len(match.steps) - 1}: ")
    if entry is not None:
        assert current[0].find_element("tag name", "a").text == entry
        assert status.endswith(entry.split(". ", 1)[1])


def press(body: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.keys import Keys

    for _ in range(times):
        body.send_keys(getattr(Keys, key))


def click_entry(browser: Any, n: int) -> None:
    link = browser.find_element("css selector", f'#moves a[data-step="{n}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.txt")))  # every game and rule set
def test_the_arrow_keys_step_through_the_boards_and_the_move_list(browser: Any, tmp_path: Path, name: str) -> None:
    match = gathered(name)
    body = opened(browser, tmp_path, match)
    shows(browser, match, 0, "0. the start")
    # Step by step through the first 40 steps (a whole match for all but All Hands On Deck's 228),
    # then the last 10 from a step the list's link goes to.
    last = len(match.steps) - 1
    for n in range(1, min(last, 40) + 1):
        press(body, "ARROW_RIGHT")
        shows(browser, match, n)
    if last > 40:
        click_entry(browser, last - 10)
        shows(browser, match, last - 10)
        for n in range(last - 9, last + 1):
            press(body, "ARROW_RIGHT")
            shows(browser, match, n)
    press(body, "ARROW_RIGHT")  # past the end it stays at the end
    shows(browser, match, len(match.steps) - 1)
    press(body, "ARROW_LEFT", 3)
    shows(browser, match, len(match.steps) - 4)


def test_a_private_submission_shows_the_public_board_and_no_text(browser: Any, tmp_path: Path) -> None:
    match = gathered("tiles")
    body = opened(browser, tmp_path, match)
    press(body, "ARROW_RIGHT", 2)
    shows(browser, match, 2, "2. Eunji (p1) sent a private submission")
    press(body, "ARROW_RIGHT")
    shows(browser, match, 3, "3. Doyoon (p2) sent a private submission")
    assert "A1 C6" not in browser.page_source


def test_clicking_a_move_goes_to_it_and_home_and_end_go_to_the_ends(browser: Any, tmp_path: Path) -> None:
    match = gathered("tictacfive")
    last = len(match.steps) - 1
    body = opened(browser, tmp_path, match)
    click_entry(browser, 7)
    shows(browser, match, 7, "7. Dongmin (p2): G9")
    assert browser.current_url.endswith("#step-7")
    click_entry(browser, 2)
    shows(browser, match, 2, "2. Hyunmin (p1): I9")
    press(body, "ARROW_RIGHT")
    shows(browser, match, 3)
    press(body, "END")
    shows(browser, match, last)
    press(body, "HOME")
    shows(browser, match, 0)
    browser.find_element("id", "last").click()
    shows(browser, match, last)
    browser.find_element("id", "prev").click()
    shows(browser, match, last - 1)
    browser.find_element("id", "first").click()
    shows(browser, match, 0)
    browser.find_element("id", "next").click()
    shows(browser, match, 1)


def test_an_address_with_a_step_opens_the_page_at_it(browser: Any, tmp_path: Path) -> None:
    match = gathered("tictacfive")
    opened(browser, tmp_path, match, anchor="#step-11")
    shows(browser, match, 11)
    assert browser.execute_script("return window.scrollY;") == 0  # the board stays in sight


def test_the_play_button_advances_to_the_end_and_stops(browser: Any, tmp_path: Path) -> None:
    match = gathered("tiles")
    last = len(match.steps) - 1
    body = opened(browser, tmp_path, match)
    browser.execute_script("document.body.setAttribute('data-interval', '20')")  # not a second a step
    browser.execute_script(
        "window.seen = []; new MutationObserver(function () { window.seen.push(document.body.dataset.step); })"
        ".observe(document.body, {attributes: true, attributeFilter: ['data-step']});"
    )
    play = browser.find_element("id", "play")
    play.click()
    assert play.text == "Pause" and play.get_attribute("aria-pressed") == "true"
    shows(browser, match, last)
    wait_for(browser, lambda d: play.text == "Play")
    assert play.get_attribute("aria-pressed") == "false"
    seen = browser.execute_script("return window.seen;")
    assert seen == [str(n) for n in range(1, last + 1)]  # every step in turn, none skipped
    # Played again from the end, it starts over; a key stops it.
    play.click()
    wait_for(browser, lambda d: body.get_attribute("data-step") not in (str(last),))
    press(body, "HOME")
    shows(browser, match, 0)
    assert play.text == "Play"


@pytest.mark.parametrize("name", ["tictacfive", "decks"])
def test_the_page_fits_a_phone_without_scrolling_sideways(browser: Any, tmp_path: Path, name: str) -> None:
    match = gathered(name)
    long_name = "Hyunmin" * 40  # a name with no space to break at
    match = PageMatch(match.title + " " + long_name, {**match.names, "p1": long_name}, match.result, match.steps)
    opened(browser, tmp_path, match, width=375)
    sizes = browser.execute_script(
        "var e = document.documentElement, img = document.getElementById('board-img');"
        "return [e.scrollWidth, e.clientWidth, img.getBoundingClientRect().right];"
    )
    scroll_width, client_width, image_right = sizes
    assert client_width <= 375
    assert scroll_width <= client_width
    assert image_right <= client_width


def test_the_result_shows_only_once_the_last_step_is_reached(browser: Any, tmp_path: Path) -> None:
    match = gathered("tictacfive")
    body = opened(browser, tmp_path, match)
    shows(browser, match, 0)
    result = browser.find_element("id", "result")
    assert not result.is_displayed() and match.result not in body.text
    press(body, "END")
    shows(browser, match, len(match.steps) - 1)
    assert result.is_displayed() and result.text == match.result
    press(body, "ARROW_LEFT")
    shows(browser, match, len(match.steps) - 2)
    assert not result.is_displayed() and match.result not in body.text


def test_a_tall_board_keeps_its_text_readable_in_a_1200_by_900_window(browser: Any, tmp_path: Path) -> None:
    # All Hands On Deck's task cards are 1,608 px tall: fitted to 80 % of a 900 px window, their
    # smallest text (20 px) was 9 px high. The board now shrinks to 0.6 at most; the page scrolls.
    from geniusbot.archive.page import MIN_SCALE

    match = gathered("allhands")
    body = opened(browser, tmp_path, match, width=1200)
    for n in range(0, 13):
        height = Image.open(io.BytesIO(match.steps[n].picture or b"")).height
        shown = browser.execute_script("return document.getElementById('board-img').getBoundingClientRect().height;")
        assert shown >= MIN_SCALE * height - 1, (n, shown, height)
        press(body, "ARROW_RIGHT")
        shows(browser, match, n + 1)


def test_a_page_of_40000_steps_opens_and_goes_to_its_ends(browser: Any, tmp_path: Path) -> None:
    # Too long for a picture of every step: the text board of each, and a line that says so.
    from .longrecord import long_record

    match = record_steps(parse_record(long_record(40_000)))
    last = len(match.steps) - 1
    body = opened(browser, tmp_path, match)
    board = browser.find_element("id", "board-text")
    assert not browser.find_element("id", "board-img").is_displayed() and board.is_displayed()
    assert board.get_attribute("textContent") == match.steps[0].board and "too long for a picture" in body.text
    press(body, "END")
    wait_for(browser, lambda d: body.get_attribute("data-step") == str(last))
    assert board.get_attribute("textContent") == match.steps[last].board
    assert browser.find_element("id", "status").text == f"Step {last} of {last}: host: resign p2"
    assert browser.find_element("css selector", "#moves li.current").get_attribute("data-step") == str(last)
    press(body, "ARROW_LEFT", 3)
    wait_for(browser, lambda d: body.get_attribute("data-step") == str(last - 3))
    assert board.get_attribute("textContent") == match.steps[last - 3].board
    click_entry(browser, 20_000)
    wait_for(browser, lambda d: body.get_attribute("data-step") == "20000")
    assert board.get_attribute("textContent") == match.steps[20_000].board


def test_a_game_without_a_picture_shows_its_text_board_and_no_broken_image(browser: Any, tmp_path: Path) -> None:
    # The image's display:block outranked its hidden attribute: a broken-image icon and its alt
    # text stood above the text board.
    from tests.host.sealedbid import registered

    record = '[Game "sealedbid"]\n[Seed "1"]\n[P1 "Ann"]\n[P2 "Bo"]\np1 (dm): bid 7\np2 (dm): bid 3\n'
    with registered():
        match = record_steps(parse_record(record))
        body = opened(browser, tmp_path, match)
    assert not browser.find_element("id", "board-img").is_displayed()
    assert browser.find_element("id", "board-text").get_attribute("textContent") == match.steps[0].board
    press(body, "ARROW_RIGHT")
    wait_for(browser, lambda d: body.get_attribute("data-step") == "1")
    assert not browser.find_element("id", "board-img").is_displayed()
    assert browser.find_element("id", "board-text").get_attribute("textContent") == match.steps[1].board


_DECODE_FRAMES = """
const [b64, wanted, done] = arguments;
(async () => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const decoder = new ImageDecoder({data: bytes, type: "image/gif"});
  await decoder.tracks.ready;
  const out = [];
  for (const [index, x, y] of wanted) {
    const {image} = await decoder.decode({frameIndex: index});
    const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    out.push([image.displayWidth, image.displayHeight, Array.from(context.getImageData(x, y, 1, 1).data)]);
    image.close();
  }
  done(out);
})().catch(error => done(String(error)));
"""


def test_chromium_shows_nothing_under_the_shorter_cards_of_an_all_hands_gif(browser: Any, tmp_path: Path) -> None:
    # What a browser (and Discord's) shows of each frame, decoded by Chromium's own GIF decoder:
    # under a 958-pixel card the screen is clear, not 762 rows of empty card.
    import base64

    from geniusbot.archive import gif
    from geniusbot.archive.steps import from_record

    record = Path(__file__).resolve().parents[1] / "records" / "allhands.txt"
    steps = from_record(record.read_bytes(), "allhands")
    pictures = list(gif.frames(steps))
    (part,) = gif.make_gif(steps)
    last = len(pictures) - 1
    tall = next(n for n, p in enumerate(pictures) if p.height == 1720)
    short = next(n for n, p in enumerate(pictures) if n > tall and p.height == 958)  # right after a task
    (tmp_path / "blank.html").write_text("<!DOCTYPE html><title>GIF</title>", encoding="utf-8")
    browser.get((tmp_path / "blank.html").as_uri())
    browser.set_script_timeout(60)
    wanted = [[n, 450, y] for n in (0, tall, short, last) for y in (900, 1000, 1700)]
    seen = browser.execute_async_script(_DECODE_FRAMES, base64.b64encode(part.data).decode("ascii"), wanted)
    assert isinstance(seen, list), seen
    for (n, x, y), (width, height, pixel) in zip(wanted, seen, strict=True):
        assert (width, height) == (900, 1720)
        if y < pictures[n].height:
            assert pixel == [*rgb_of(pictures[n], x, y), 255], (n, y, pixel)
        else:
            assert pixel[3] == 0, (n, y, pixel)


def rgb_of(image: Image.Image, x: int, y: int) -> list[int]:
    """The colour of a palette image's pixel."""
    return list(image.convert("RGB").getpixel((x, y)))  # type: ignore[arg-type]
