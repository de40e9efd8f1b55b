"""Running work in independent, seeded partitions: locally or on a Dask cluster.

Each partition is a pure function of its parameters and index (its random numbers come
from ``SeedSequence(seed, spawn_key=(index,))``), so partitions can run anywhere, in any
order. Each finished partition is written to the run's folder at once (a temporary file,
then a rename); ``resume`` skips those already there, so an interrupted run picks up where
it stopped, and merging in partition order makes the result identical to an uninterrupted
run with the same seed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from analyzer.errors import AnalyzerError
from analyzer.files import write_atomically

Result = dict[str, np.ndarray]


class Interrupted(Exception):
    """The run stopped (Ctrl-C); finished partitions are saved."""


def partition_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def run_folder(base: Path, parameters: dict[str, Any]) -> Path:
    """The folder of a run: named by a hash of everything its result depends on."""
    text = json.dumps(parameters, sort_keys=True, default=str)
    return base / hashlib.sha256(text.encode()).hexdigest()[:16]


def _save(path: Path, result: Result) -> None:
    write_atomically(path, lambda temporary: np.savez(temporary, **result))


def _load(path: Path) -> Result | None:
    try:
        with np.load(path) as data:
            return {key: data[key] for key in data.files}
    except Exception:  # a damaged file is simply run again
        return None


def run_partitions(
    task: Callable[..., Result],
    arguments: list[tuple],
    folder: Path,
    parameters: dict[str, Any],
    *,
    resume: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    description: str = "partitions",
    sizes: list[int] | None = None,
    unit: str = "partitions",
) -> list[Result]:
    """Run ``task(*arguments[i])`` for every partition ``i``; results in partition order.

    The progress bar counts ``sizes[i]`` units (e.g. shoes) per partition when given.
    """
    sizes = [1] * len(arguments) if sizes is None else sizes
    if folder.exists() and not resume:
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "run.json").write_text(json.dumps(parameters, sort_keys=True, default=str, indent=1))
    results: list[Result | None] = [None] * len(arguments)
    for index in range(len(arguments)):
        path = folder / f"part-{index:05d}.npz"
        if resume and path.exists():
            results[index] = _load(path)
    todo = [i for i, result in enumerate(results) if result is None]
    bar = tqdm(
        total=sum(sizes),
        initial=sum(sizes) - sum(sizes[i] for i in todo),
        unit=" " + unit,
        desc=description,
        disable=None if progress is None else not progress,  # None: only on a terminal
        smoothing=0.1,
    )

    def finished(index: int, result: Result) -> None:
        _save(folder / f"part-{index:05d}.npz", result)
        results[index] = result
        bar.update(sizes[index])

    try:
        if not todo:
            pass
        elif scheduler is not None:
            _run_dask(task, arguments, todo, scheduler, finished)
        elif (workers or os.cpu_count() or 1) == 1 or len(todo) == 1:
            for index in todo:
                finished(index, task(*arguments[index]))
        else:
            _run_processes(task, arguments, todo, workers or os.cpu_count() or 1, finished)
    except KeyboardInterrupt:
        done = sum(result is not None for result in results)
        raise Interrupted(
            f"interrupted: {done} of {len(arguments)} partitions are saved in {folder}; "
            "run the same command with --resume to finish"
        ) from None
    finally:
        bar.close()
    return results  # type: ignore[return-value]


def _run_processes(task, arguments, todo, workers, finished) -> None:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(task, *arguments[i]): i for i in todo}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    finished(pending.pop(future), future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _run_dask(task, arguments, todo, scheduler, finished) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise AnalyzerError("--scheduler needs dask.distributed installed") from None
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise AnalyzerError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        futures = {client.submit(task, *arguments[i], pure=False): i for i in todo}
        try:
            for future in as_completed(futures):
                finished(futures[future], future.result())
        except BaseException:
            client.cancel(list(futures))
            raise
