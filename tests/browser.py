"""A real headless browser for the tests: Debian's ``chromium``, driven over the DevTools
protocol on a pipe (``--remote-debugging-pipe``: no port, no extra package).

One browser serves a whole test session. :meth:`Browser.render` loads a page, waits for
its load event, and returns the DOM as the browser built it, a full-page PNG screenshot,
and every console or log entry the page caused (a missing stylesheet or image, a script
error, a blocked request).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass(frozen=True)
class Rendered:
    dom: str
    screenshot: bytes
    #: Every image of the page decoded (loaded, with a width), and the stylesheet applied.
    images_loaded: bool
    styled: bool
    #: (source, level, text) of every log entry and console message of the page.
    messages: tuple[tuple[str, str, str], ...]


class Browser:
    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="chromium-test-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def child_pipes() -> None:  # the protocol's file descriptors: 3 in, 4 out
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self._process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile}",
                "about:blank",
            ],
            pass_fds=(3, 4),
            preexec_fn=child_pipes,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict] = []
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log"):
            self._call(f"{domain}.enable", session=self._session)
        self._call(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False},
            session=self._session,
        )

    def _receive(self, wanted) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                message = json.loads(raw)
                if wanted(message):
                    return message
                self._events.append(message)
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buffer += chunk

    def _call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        number = self._next_id
        reply = self._receive(lambda m: m.get("id") == number)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def render(self, path: Path) -> Rendered:
        """Load ``path`` (a local file), and return what the browser made of it."""
        self._events.clear()
        self._call("Page.navigate", {"url": path.resolve().as_uri()}, session=self._session)
        self._receive(
            lambda m: (
                m.get("method") == "Page.loadEventFired" and m.get("sessionId") == self._session
            )
        )
        dom = self.evaluate("document.documentElement.outerHTML")
        images_loaded = self.evaluate(
            "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"
        )
        # The shipped stylesheet rules every h1 with no margin on top: the default has one.
        styled = self.evaluate("getComputedStyle(document.querySelector('h1')).marginTop") == "0px"
        shot = self._call(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": True},
            session=self._session,
        )
        # Messages raised by the load arrive with it or just after: a last round trip.
        self._call("Runtime.evaluate", {"expression": "0"}, session=self._session)
        messages = []
        for event in self._events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Log.entryAdded":
                entry = params["entry"]
                messages.append((entry.get("source", ""), entry.get("level", ""), entry["text"]))
            elif method == "Runtime.consoleAPICalled":
                text = " ".join(
                    str(a.get("value", a.get("description", ""))) for a in params["args"]
                )
                messages.append(("console", params.get("type", ""), text))
            elif method == "Runtime.exceptionThrown":
                messages.append(("exception", "error", params["exceptionDetails"].get("text", "")))
        return Rendered(dom, base64.b64decode(shot["data"]), images_loaded, styled, tuple(messages))

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        reply = self._call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True},
            session=self._session,
        )
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails'].get('text')}")
        return reply["result"].get("value")

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self._call("Browser.close")
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)
