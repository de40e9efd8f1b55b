"""The progress stream: where bars and notes go, as --progress and --no-progress say."""

from __future__ import annotations

from analyzer.progress import bar_options, note, progress_to, slow_step


def test_bar_options_follow_the_setting(tmp_path) -> None:
    assert bar_options() == {"disable": None, "leave": True}  # a terminal only
    with progress_to(False):
        assert bar_options(leave=False) == {"disable": True, "leave": False}
        assert bar_options(True)["disable"] is False  # a caller's own choice wins
    with progress_to(True, str(tmp_path / "p.log")):
        options = bar_options(leave=False)
        assert options["leave"] and options["ascii"] and not options["disable"]
        note("compiling the exact walk (first run only, about a minute) ...")
    assert (tmp_path / "p.log").read_text() == (
        "compiling the exact walk (first run only, about a minute) ...\n"
    )


def test_a_slow_step_is_said_only_while_it_runs(tmp_path) -> None:
    import threading

    path = tmp_path / "p.log"
    with progress_to(True, str(path)):
        with slow_step("quick ...", after=60):
            pass
        said = threading.Event()
        with slow_step("preparing the exact walk ...", after=0):
            # (waits for the timer's line, however long the machine takes to write it)
            for _ in range(1000):
                if path.exists() and path.read_text():
                    said.set()
                    break
                threading.Event().wait(0.01)
    assert said.is_set() and path.read_text() == "preparing the exact walk ...\n"
