"""The Train page's "continue training the current model": the plan of a fine-tuning (transformer.plan.TrainingPlan.
continuing), what it keeps of the model, the tokens the model lacks, and the scores before and after."""

from __future__ import annotations

from transformer import TrainConfig
from transformer.plan import Before, TrainingPlan
from transformer.splits import Split
from transformer.text import markdown

from .datasets import split_source
from .export import text
from .i18n import t
from .model_cache import CurrentModel
from .published import origin
from .session import session_memo

BEFORE_PARTS = {"holdout": "train.before_part.holdout", "train": "train.before_part.train"}  # Before.part → words


def finetune_plan(model: CurrentModel, pairs: list, split: Split | None, holdout: float, epochs: int) -> TrainingPlan:
    """The plan "Continue training" would start on the table's pairs (split as a new model's would be: rows of
    split_source), once per model, table, split and settings; the model read only (the job trains its own copy)."""

    def plan() -> TrainingPlan:
        rows, also = split_source(pairs) if split is not None else (pairs, [])
        return TrainingPlan.continuing(model.translator, rows, split, holdout, TrainConfig(epochs=epochs), also)

    return session_memo("finetune_plan", (model.id, pairs, split, holdout, epochs), plan)


def fine_tuned_name(L: str, model: CurrentModel) -> str:
    """What a fine-tuned model is called: the model it went on from, trained further."""
    return t("train.fine_tuned_name", L, name=origin(L, model))


def kept_lines(L: str, model: CurrentModel, plan: TrainingPlan) -> None:
    """Why the size sliders are off, and how many tokens of the pairs the model reads as <unk>."""
    text(t("train.sizes_fixed", L, name=markdown(origin(L, model))), "caption")
    src, tgt = session_memo("finetune_unknown", (model.id, plan.train_pairs, plan.held_pairs), plan.unknown_tokens)
    if src or tgt:
        text(t("train.unknown_tokens", L, src=f"{src:,}", tgt=f"{tgt:,}"), "info")
    else:
        text(t("train.no_unknown_tokens", L), "caption")


def before_after(L: str, before: Before, model: CurrentModel) -> None:
    """The fine-tuned model's exact match, BLEU and chrF against the same part's before its training."""
    after = before.after(model.translator)
    if after is None:
        return
    part = t(BEFORE_PARTS[before.part], L, n=f"{before.scores.pairs:,}")
    was = before.scores
    text(
        t(
            "train.before_after",
            L,
            part=part,
            before_exact=f"{was.exact_match:.1%}",
            after_exact=f"{after.exact_match:.1%}",
            before_bleu=f"{was.bleu:.1f}",
            after_bleu=f"{after.bleu:.1f}",
            before_chrf=f"{was.chrf:.1f}",
            after_chrf=f"{after.chrf:.1f}",
        )
    )
    text(t("train.before_after_intro", L), "caption")
