"""How learning hears of what games and analysis announce (games/hooks.py `match_finished`,
analysis/hooks.py `analysis_ready`), connected at start-up by `LearningConfig.ready()`
(docs/architecture.md, "Architecture"). Both run after the announcing commit; one that raises
is logged by the sender and the match or analysis stands."""

from __future__ import annotations

from analysis import hooks as analysis_hooks
from games import hooks as games_hooks
from learning.services.from_analysis import learning_from_analysis
from learning.services.results import statistics_count_match


def count_finished(sender, *, match_id: int, **kwargs) -> None:  # noqa: ANN001
    statistics_count_match(match_id=match_id)


def learn_from_analysis(sender, *, match_id: int, **kwargs) -> None:  # noqa: ANN001
    learning_from_analysis(match_id=match_id)


def connect() -> None:
    games_hooks.match_finished.connect(count_finished, dispatch_uid="learning.count_finished")
    analysis_hooks.analysis_ready.connect(learn_from_analysis, dispatch_uid="learning.analysis")
