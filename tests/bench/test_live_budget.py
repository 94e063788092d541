"""The live path's CPU guard (bench/live_budget.py): its budget file and how it judges a run.
The run itself is CI's (`make bench-guard`); nothing here measures a time."""

from types import SimpleNamespace

from bench import live_budget, live_load


def _result(**overrides):
    result = {
        "rtt_ms": [10.0, 20.0, 30.0],
        "steps_sent": 300,
        "rolls_sent": 100,
        "elapsed": 30.0,
        "machine_cpu_percent": 50.0,
        "errors": {},
        "deliveries_expected": 600,
        "deliveries_missing": 0,
        "cpu_seconds": {"daphne-0": 0.6, "daphne-1": 0.4, "postgres": 0.2, "client": 0.3},
        "finals": {"1": [{"version": 7, "board": [1], "closed": False}]},
    }
    return {**result, **overrides}


def _figures(**overrides):
    arguments = SimpleNamespace(matches=1, duration=30.0)
    return live_load.figures(arguments, _result(**overrides), {"1": {"version": 7, "board": [1]}})


def test_cpu_per_command_is_cpu_seconds_over_rolls_and_steps():
    per_command = _figures()["cpu_ms_per_command"]
    assert per_command["daphne"] == 2.5  # (0.6 + 0.4) s over 400 commands
    assert per_command["postgres"] == 0.5


def test_the_budget_names_a_run_and_both_limits():
    budget = live_budget.load_budget()
    assert set(budget["run"]) == {"matches", "duration", "daphne_processes", "spectators_per_match"}
    assert budget["limit"]["daphne_cpu_ms_per_command"] > 0
    assert budget["limit"]["postgres_cpu_ms_per_command"] > 0


def test_a_sound_run_within_the_limits_passes():
    budget = {"limit": {"daphne_cpu_ms_per_command": 3.0, "postgres_cpu_ms_per_command": 1.0}}
    assert live_budget.verdict(_figures(), budget) == []


def test_a_run_over_a_limit_fails_naming_the_process():
    budget = {"limit": {"daphne_cpu_ms_per_command": 2.0, "postgres_cpu_ms_per_command": 0.4}}
    problems = live_budget.verdict(_figures(), budget)
    assert [problem.split()[0] for problem in problems] == ["daphne", "postgres"]


def test_an_unsound_run_fails_whatever_its_cost():
    budget = {"limit": {"daphne_cpu_ms_per_command": 9.0, "postgres_cpu_ms_per_command": 9.0}}
    lost = _figures(deliveries_missing=2)
    assert live_budget.verdict(lost, budget) == ["2 step events never delivered"]
    disagreeing = _figures(finals={"1": [{"version": 6, "board": [1], "closed": False}]})
    assert live_budget.verdict(disagreeing, budget) == ["only 0/1 matches consistent"]


def test_the_budget_sets_limits_relative_to_the_load_generator():
    relative = live_budget.load_budget()["relative_limit"]
    assert relative["daphne_per_client"] > 0 and relative["postgres_per_client"] > 0


def _relative_budget(daphne: float, postgres: float) -> dict:
    return {
        "limit": {"daphne_cpu_ms_per_command": 99.0, "postgres_cpu_ms_per_command": 99.0},
        "relative_limit": {"daphne_per_client": daphne, "postgres_per_client": postgres},
    }


def test_a_run_over_a_relative_limit_fails_naming_the_process():
    # Daphne 2.5 ms, PostgreSQL 0.5 ms, the load generator 0.75 ms per command: 3.33 and 0.67.
    figures = _figures()
    assert round(live_budget.relative_cost(figures, "daphne"), 2) == 3.33
    problems = live_budget.verdict(figures, _relative_budget(3.0, 1.0))
    assert len(problems) == 1 and problems[0].startswith("daphne 3.33 times")
    assert live_budget.verdict(figures, _relative_budget(3.5, 0.6))[0].startswith("postgres 0.67")


def test_a_slower_machine_moves_every_process_alike_and_passes_the_relative_limits():
    slower = {"daphne-0": 0.9, "daphne-1": 0.6, "postgres": 0.3, "client": 0.45}  # all 1.5 x
    assert live_budget.verdict(_figures(cpu_seconds=slower), _relative_budget(3.4, 0.7)) == []
    # The servers alone 20 % dearer, the load generator as before: caught.
    dearer = {"daphne-0": 0.72, "daphne-1": 0.48, "postgres": 0.2, "client": 0.3}
    problems = live_budget.verdict(_figures(cpu_seconds=dearer), _relative_budget(3.4, 0.7))
    assert [problem.split()[0] for problem in problems] == ["daphne"]


def test_a_run_without_the_load_generators_figure_fails_a_relative_limit():
    no_client = {"daphne-0": 0.6, "daphne-1": 0.4, "postgres": 0.2}
    problems = live_budget.verdict(_figures(cpu_seconds=no_client), _relative_budget(9.0, 9.0))
    assert problems == [
        "daphne no figure times the load generator's CPU per command, over its 9.0",
        "postgres no figure times the load generator's CPU per command, over its 9.0",
    ]
