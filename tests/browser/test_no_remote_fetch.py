"""Nothing a model, a tool, a document or a question writes makes the browser fetch a URL:
headless Chromium runs a turn full of images, tags and frames pointing at a local server
that counts every request it gets, live and after a reload. It must count zero."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser.conftest import ARTEFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class CountingServer:
    """An HTTP server on 127.0.0.1 that answers every request with a tiny image and keeps its path."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the http.server name)
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/gif")
                self.end_headers()
                self.wfile.write(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")

            def log_message(self, *args):
                pass

        self.hits = hits
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def counter():
    server = CountingServer()
    yield server
    server.close()


def hostile(base: str, where: str) -> str:
    """Every way markdown could load ``base``: an image, a reference image, a linked badge, tags, a frame, TeX."""
    return (
        f"![x]({base}/{where}-image.png?d=the+conversation) "
        f"![ref][{where}] [![badge]({base}/{where}-badge.png)](https://example.org) "
        f'<img src="{base}/{where}-tag.png"> <iframe src="{base}/{where}-frame.html"></iframe> '
        f'<video poster="{base}/{where}-poster.png"></video> '
        f"$\\includegraphics[height=1em]{{{base}/{where}-tex.png}}$\n\n[{where}]: {base}/{where}-ref.png"
    )


def test_no_image_or_frame_in_a_turn_is_ever_fetched(streamlit_app, fake_server, page, counter):
    base = counter.url
    payload = hostile(base, "observation")
    fake_server.script.extend(
        [
            {
                "text": "Thought: I look at " + hostile(base, "thought").replace("\n\n", " "),
                "tool_calls": [
                    {
                        "id": "c1",
                        "name": "text_tools",
                        "arguments": json.dumps({"operation": "replace", "text": payload, "find": "zz"}),
                    }
                ],
            },
            {"text": "Answer: Here is the summary, the total is 400.\n\n" + hostile(base, "answer")},
        ]
    )
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill(f"![t]({base}/title.png) <img src={base}/question.png> what is the total?")
    box.press("Enter")
    page.get_by_text("the total is 400").first.wait_for(timeout=60000)
    page.get_by_text("Observation", exact=True).first.click()  # the tool's text drawn too
    time.sleep(3)  # room for any fetch the page would make
    live = list(counter.hits)

    page.reload()  # the stored turn replayed, the title drawn from the first question
    page.get_by_text("the total is 400").first.wait_for(timeout=60000)
    page.get_by_text("Observation", exact=True).first.click()
    time.sleep(3)
    page.screenshot(path=str(ARTEFACTS / "no_remote_fetch.png"), full_page=True)
    body = page.inner_text("body").replace("\u200b", "")

    assert live == [] and counter.hits == []
    assert not [url for url in requests if url.startswith(base)]
    assert f"{base}/answer-image.png" in page.content()  # the link is shown, as a link, not fetched
    assert "<img src=" in body and "</iframe>" in body and "&lt;" not in body  # a tag is shown as the text it is
    assert page.locator(f"img[src^='{base}'], iframe[src^='{base}'], video[poster^='{base}']").count() == 0

    # the control: the same browser does reach the counter when a page asks it to
    page.evaluate(f"new Image().src = '{base}/control.png'")
    deadline = time.monotonic() + 10
    while not counter.hits and time.monotonic() < deadline:
        time.sleep(0.1)
    assert counter.hits == ["/control.png"]
