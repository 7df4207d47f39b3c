"""Mutation testing of ``rules/`` or the table engine: would the tests notice a wrong sign,
boundary or constant?

    python scripts/mutation.py                  # rules/: a sample of 400, seed 1, two workers
    python scripts/mutation.py --sample 0       # every mutant (hours)
    python scripts/mutation.py --only 'rules/counts.py' --sample 0
    python scripts/mutation.py --target engine --sample 150   # tui/table, with its tests

Needs ``pip install -e '.[mutation]'`` (cosmic-ray). Not part of the test suite.

cosmic-ray lists every mutation its operators can make in the target's package
(``scripts/mutation.toml`` says which operators, and for each target its package and its test
command). This script leaves out the mutations no test could ever see (type annotations,
which ``from __future__ import annotations`` never evaluates; ``if TYPE_CHECKING`` blocks;
decorators' arguments), draws a seeded sample from the rest, copies the code and the target's
tests into a temporary folder per worker (cosmic-ray mutates files in place; the checkout is
never touched), and runs ``cosmic-ray exec`` in each. A mutant is killed when the tests fail
or time out.

The mutants that cannot change what the code does are listed, each with its reason, in
``scripts/mutation_equivalents.toml``; they are left out of the score, which is the share of
the other sampled mutants killed. The survivors are printed with their diff, to be killed by a
test or, where no behaviour can differ, added to that file.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cosmic_ray.commands import init as cr_init
from cosmic_ray.modules import find_modules
from cosmic_ray.mutating import mutate_code
from cosmic_ray.plugins import get_operator
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkItem, WorkResult

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "scripts" / "mutation.toml"
EQUIVALENTS = ROOT / "scripts" / "mutation_equivalents.toml"
TARGETS = ("rules", "engine")


def target_config(name: str) -> dict:
    """A target's table of ``scripts/mutation.toml``: module-path, test-command, timeout, copy
    (what a worker's copy needs to run the tests), results (the default --results)."""
    return tomllib.loads(CONFIG.read_text(encoding="utf-8"))["kubik"]["target"][name]


def test_command(target: dict, reseed: int | None) -> str:
    """The target's test command as run (one line; the tests' seeds changed with ``reseed``,
    tests/conftest.py: luck shows as a change)."""
    command = " ".join(target["test-command"].replace("{python}", sys.executable).split())
    return command if reseed is None else f"{command} --reseed {reseed}"


@dataclass(frozen=True)
class Mutant:
    """One mutation: where, which operator, and the source line it changes."""

    spec: MutationSpec
    line: str  # the changed line, stripped

    @property
    def path(self) -> str:
        return str(self.spec.module_path)

    def mutated_line(self) -> str:
        """The line as the mutant reads (stripped): with ``line``, what names the mutant."""
        source = (ROOT / self.path).read_text(encoding="utf-8")
        operator = get_operator(self.spec.operator_name)(**self.spec.operator_args)
        mutated = mutate_code(source, operator, self.spec.occurrence) or source
        number = self.spec.start_pos[0] - 1
        return mutated.splitlines()[number].strip()

    def where(self) -> str:
        return f"{self.path}:{self.spec.start_pos[0]}"


def _unseen_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The (start, end) positions of code no test could see changed: annotations and ``if
    TYPE_CHECKING`` blocks (never run), decorators (``frozen=True`` → ``False`` lets code
    assign to a result, which no code does; ``lru_cache(maxsize=…)`` is only speed)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()

    def char_col(line: int, byte_col: int) -> int:
        return len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8"))

    def span(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
        return (
            (node.lineno, char_col(node.lineno, node.col_offset)),
            (node.end_lineno, char_col(node.end_lineno, node.end_col_offset)),
        )

    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.arg) and node.annotation is not None:
            spans.append(span(node.annotation))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            spans.append(span(node.returns))
        elif isinstance(node, ast.AnnAssign):
            spans.append(span(node.annotation))
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            spans.append(span(node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            spans.extend(span(decorator) for decorator in node.decorator_list)
    return spans


def _inside(pos: tuple[int, int], spans: list) -> bool:
    return any(start <= tuple(pos) < end for start, end in spans)


def all_mutants(
    target: dict, work: Path, only: list[str], excluded: list[re.Pattern]
) -> list[Mutant]:
    """Every mutant cosmic-ray makes in the target's package that some run of the code could
    show."""
    db_path = work / "all.sqlite"
    modules = sorted(find_modules([ROOT / target["module-path"]]))
    with use_db(str(db_path)) as db:
        cr_init(modules, db, {})
        items = list(db.work_items)
    db_path.unlink()
    spans: dict[Path, list] = {}
    source_lines: dict[Path, list[str]] = {}
    mutants = []
    for item in items:
        (spec,) = item.mutations
        path = Path(spec.module_path)
        rel = path.relative_to(ROOT).as_posix()
        if only and not any(fnmatch.fnmatch(rel, pattern) for pattern in only):
            continue
        if any(p.search(spec.operator_name) for p in excluded):
            continue
        if path not in spans:
            spans[path] = _unseen_spans(path)
            source_lines[path] = path.read_text(encoding="utf-8").splitlines()
        if _inside(spec.start_pos, spans[path]):
            continue
        relative = MutationSpec(
            module_path=rel,
            operator_name=spec.operator_name,
            operator_args=spec.operator_args,
            occurrence=spec.occurrence,
            start_pos=tuple(spec.start_pos),
            end_pos=tuple(spec.end_pos),
            definition_name=spec.definition_name,
        )
        line = source_lines[path][spec.start_pos[0] - 1].strip()
        mutants.append(Mutant(relative, line))
    mutants.sort(key=lambda m: (m.path, tuple(m.spec.start_pos), m.spec.operator_name))
    return mutants


def load_equivalents() -> dict[tuple[str, str, str], str]:
    """``scripts/mutation_equivalents.toml``: the mutants no behaviour can tell apart, by
    (file, line, the line as the mutant reads)."""
    data = tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    return {(e["file"], e["line"], e["mutant"]): e["reason"] for e in data.get("equivalent", [])}


def make_copy(config: dict, target: Path) -> None:
    """Copy what the tests need; no caches, so no stale bytecode of a mutant survives."""
    for name in config["copy"]:
        src, dst = ROOT / name, target / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst)


def write_config(config: dict, target: Path, reseed: int | None) -> Path:
    """cosmic-ray's own config for a worker's copy: the target's package, command, timeout."""
    text = "\n".join(
        [
            "[cosmic-ray]",
            f"module-path = {json.dumps(config['module-path'])}",
            "excluded-modules = []",
            f"test-command = {json.dumps(test_command(config, reseed))}",
            f"timeout = {float(config['timeout'])}",
            "",
            "[cosmic-ray.distributor]",
            'name = "local"',
            "",
        ]
    )
    path = target / "cosmic-ray.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run(
    config: dict, mutants: list[Mutant], jobs: int, work: Path, reseed: int | None
) -> list[WorkResult]:
    """Run ``cosmic-ray exec`` on ``jobs`` copies at once; each mutant's result, in order."""
    copies = []
    for k in range(jobs):
        target = work / f"worker{k}"
        make_copy(config, target)
        write_config(config, target, reseed)
        with use_db(str(target / "session.sqlite")) as db:
            for n in range(k, len(mutants), jobs):
                db.add_work_item(WorkItem.single(str(n), mutants[n].spec))
        copies.append(target)
    if copies:
        baseline = subprocess.run(
            test_command(config, reseed).split(),
            cwd=copies[0],
            capture_output=True,
            text=True,
        )
        if baseline.returncode != 0:
            sys.exit("The tests fail without any mutation:\n" + baseline.stdout[-3000:])
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cosmic_ray.cli", "exec", "cosmic-ray.toml", "session.sqlite"],
            cwd=target,
            stdout=subprocess.DEVNULL,
        )
        for target in copies
    ]
    for proc in procs:
        if proc.wait() != 0:
            sys.exit("cosmic-ray exec failed")
    results: dict[int, WorkResult] = {}
    for target in copies:
        with use_db(str(target / "session.sqlite"), WorkDB.Mode.open) as db:
            for job_id, result in db.results:
                results[int(job_id)] = result
    return [results[n] for n in range(len(mutants))]


def _toml_string(text: str) -> str:
    """A TOML literal string where it can be one (no escapes to read), else a basic one."""
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def retry(saved: dict, args: argparse.Namespace) -> None:
    """Run the survivors of a saved run again on today's tests; mark the ones now killed.

    Each is found again by its file, line and mutated line, wherever the line moved."""
    started = time.monotonic()
    config = target_config(saved.get("target", "rules"))
    equivalents = load_equivalents()
    wanted = [
        r
        for r in saved["mutants"]
        if r["outcome"] == args.retry
        and (r["file"], r["line"], r["mutant"]) not in equivalents
        and (not args.only or any(fnmatch.fnmatch(r["file"], p) for p in args.only))
    ]
    work = Path(tempfile.mkdtemp(prefix="kubik-mutation-"))
    try:
        files = sorted({r["file"] for r in wanted})
        candidates: dict[tuple[str, str, str], Mutant] = {}
        for m in all_mutants(config, work, files, []):
            if any(m.path == r["file"] and m.line == r["line"] for r in wanted):
                candidates.setdefault((m.path, m.line, m.mutated_line()), m)
        again = []
        for r in wanted:
            mutant = candidates.get((r["file"], r["line"], r["mutant"]))
            if mutant is None:
                sys.exit(f"{r['where']} changed since the run: run the sample again")
            again.append((r, mutant))
        results = run(config, [m for _, m in again], max(1, args.jobs), work, args.reseed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    minutes = (time.monotonic() - started) / 60
    if args.retry == "killed":  # a kill that does not hold under other seeds was luck
        lucky = [
            r
            for (r, _), result in zip(again, results, strict=True)
            if result.test_outcome == TestOutcome.SURVIVED
        ]
        for r in lucky:
            print(f"KILLED ONLY BY LUCK {r['where']}: {r['line']}  →  {r['mutant']}")
        print(f"{len(again)} killed mutants run again ({minutes:.0f} min): {len(lucky)} survive")
        sys.exit(1 if lucky else 0)
    now_killed = 0
    for (r, _), result in zip(again, results, strict=True):
        if result.test_outcome != TestOutcome.SURVIVED:
            r["outcome"] = "killed"
            now_killed += 1
    saved["header"] += (
        f"; {time.strftime('%Y-%m-%d')}: its {len(again)} survivors run again on the tests "
        f"added since ({minutes:.0f} min), {now_killed} of them killed"
    )


def _first_failure(output: str | None) -> str:
    """The test that killed a mutant (pytest's first FAILED or ERROR line), or ``""``."""
    found = re.search(r"^(?:FAILED|ERROR) (\S+)", output or "", re.MULTILINE)
    return found.group(1) if found else ""


def report(records: list[dict], header: str) -> tuple[str, float]:
    """The survivors (ready to paste into the equivalents file where that is what they are)
    and the score over the non-equivalent mutants run."""
    equivalents = load_equivalents()
    counted = [r for r in records if (r["file"], r["line"], r["mutant"]) not in equivalents]
    survived = [r for r in counted if r["outcome"] == "survived"]
    out = []
    for r in survived:
        out.append(f"SURVIVED {r['where']} ({r['operator']}, in {r['definition']})")
        out.append(f'    file = "{r["file"]}"')
        out.append(f"    line = {_toml_string(r['line'])}")
        out.append(f"    mutant = {_toml_string(r['mutant'])}")
    killed = len(counted) - len(survived)
    score = 100 * killed / len(counted) if counted else 100.0
    timeouts = sum(1 for r in counted if r.get("timeout"))
    out.append(
        f"{header}; {len(records) - len(counted)} more equivalent after the run; "
        f"{killed} of {len(counted)} killed: {score:.1f} %"
        + (f" ({timeouts} of them by the timeout)" if timeouts else "")
    )
    return "\n".join(out), score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--target",
        choices=TARGETS,
        default="rules",
        help="rules: rules/ and tests/rules (default); engine: tui/table and its tests",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=400,
        help="mutants drawn at random (0: every one); default 400",
    )
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed; default 1")
    parser.add_argument("--jobs", type=int, default=2, help="workers at once; default 2")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="glob of files to mutate, e.g. 'rules/odds/*' or 'tui/table/fight/*' (repeatable)",
    )
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    parser.add_argument(
        "--results",
        type=Path,
        help="every mutant run and its outcome (default: the target's, mutation-results.json "
        "or mutation-results-engine.json)",
    )
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="run nothing: score the --results file again with the equivalents listed now",
    )
    parser.add_argument(
        "--retry",
        choices=["survived", "killed"],
        help="run the --results file's survivors again (after tests were added: the rest keep "
        "their outcome), or its killed mutants (with --reseed: which kills were luck?)",
    )
    parser.add_argument("--reseed", type=int, help="run the tests with --reseed K (other seeds)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    config = target_config(args.target)
    if args.results is None:
        args.results = Path(config["results"])

    if args.rescore or args.retry:
        saved = json.loads(args.results.read_text(encoding="utf-8"))
        if args.retry:
            retry(saved, args)
            args.results.write_text(
                json.dumps(saved, ensure_ascii=False, indent=1), encoding="utf-8"
            )
        text, _ = report(saved["mutants"], saved["header"])
        print(text)
        return
    started = time.monotonic()
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    excluded = [re.compile(p) for p in raw["kubik"]["exclude-operators"]]
    work = Path(tempfile.mkdtemp(prefix="kubik-mutation-"))
    try:
        population = all_mutants(config, work, args.only, excluded)
        if args.sample and args.sample < len(population):
            drawn = random.Random(args.seed).sample(population, args.sample)
        else:
            drawn = list(population)
        drawn.sort(key=lambda m: (m.path, tuple(m.spec.start_pos), m.spec.operator_name))
        equivalents = load_equivalents()
        keys = {id(m): (m.path, m.line, m.mutated_line()) for m in drawn}
        equivalent = [m for m in drawn if keys[id(m)] in equivalents]
        to_run = [m for m in drawn if keys[id(m)] not in equivalents]
        results = run(config, to_run, max(1, args.jobs), work, args.reseed)
    finally:
        if args.keep:
            print(f"work folder: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    minutes = (time.monotonic() - started) / 60
    records = [
        {
            "file": m.path,
            "line": m.line,
            "mutant": keys[id(m)][2],
            "where": m.where(),
            "operator": m.spec.operator_name,
            "definition": m.spec.definition_name,
            "outcome": "survived" if r.test_outcome == TestOutcome.SURVIVED else "killed",
            "timeout": r.output == "timeout",  # killed by the clock, not by a failing test
            "failed": _first_failure(r.output),
        }
        for m, r in zip(to_run, results, strict=True)
    ]
    reseeded = f", tests --reseed {args.reseed}" if args.reseed is not None else ""
    header = (
        f"{time.strftime('%Y-%m-%d')}: {len(population)} mutants of {config['module-path']}/ "
        f"in scope; {len(drawn)} drawn "
        f"(seed {args.seed}{reseeded}), {len(equivalent)} of them listed equivalent; "
        f"{len(to_run)} run in {minutes:.0f} min with {args.jobs} workers"
    )
    args.results.write_text(
        json.dumps(
            {"target": args.target, "header": header, "mutants": records},
            ensure_ascii=False,
            indent=1,
        ),
        encoding="utf-8",
    )
    text, _ = report(records, header)
    print(text)
    if args.report:
        args.report.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
