"""The learned embeddings on the Positional encoding page (issue 30 §8): opened from a link on the target side and a
token, the projection rings that token, its nearest neighbours are listed by cosine, and the sentence on whether the
word classes separate is built from the figures the package computes."""

from __future__ import annotations

import json

from tests.apptest_helpers import open_link, texts
from transformer.embeddings import neighbours, study_embeddings
from ui.strings import STRINGS

PE = "pages/positional_encoding.py"


def test_the_embeddings_view_from_a_link_rings_the_token_lists_its_neighbours_and_says_what_the_figures_say():
    at = open_link(PE, {"v": "2", "emb": "target", "token": "cat"})
    assert not at.exception
    assert at.radio(key="emb_side").value == "target" and at.selectbox(key="emb_token").value == "cat"
    study = study_embeddings(at.session_state["model"].translator, "target")
    cat = study.tokens.index("cat")
    (chart,) = [el for el in at.get("plotly_chart") if el.proto.id.endswith("-emb_projection")]
    ring = json.loads(chart.proto.spec)["data"][-1]
    assert (ring["x"], ring["y"]) == ([float(study.projection.xy[cat, 0])], [float(study.projection.xy[cat, 1])])
    shown = at.dataframe[-1].value  # the neighbours of cat, nearest first
    assert list(shown.iloc[:, 0]) == [study.tokens[j] for j, _ in neighbours(study.weights, cat, 8)]

    found = study.separation  # the bundled model: the target classes separate partly (38 % against 18 %)
    verdict = STRINGS[f"emb.verdict_{found.verdict}"]["en"].format(
        side=STRINGS["emb.side_target"]["en"],
        agree=found.agree,
        n=found.tokens,
        share=f"{100 * found.share:.0f}",
        chance=f"{100 * found.chance:.0f}",
        reached=f"{found.reached:,}",
    )
    kept = f"{100 * study.projection.kept:.0f}"
    said = " ".join(texts(at, "markdown"))
    assert verdict in said and STRINGS["emb.picture_loses"]["en"].format(kept=kept, d=64) in said
    best = STRINGS["emb.best_class"]["en"].format(kind="verb", agree=found.best[1], n=found.best[2])
    assert found.verdict == "partly" and best in said  # verbs: the class most often next to itself

    at.radio(key="emb_side").set_value("source").run()  # the source characters: their classes do not separate
    source = study_embeddings(at.session_state["model"].translator, "source").separation
    said = " ".join(texts(at, "markdown"))
    assert source.verdict == "no" and f"{source.agree} of {source.tokens} tokens" in said
    assert "The class most often next to itself" not in said  # a class apart is named only where classes separate
