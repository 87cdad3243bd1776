"""`python -m transformer translate`: translate sentences with a saved model (greedy, beam search or sampling)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..config import MAX_BEAM_SIZE, MAX_LENGTH_PENALTY, MAX_SEED
from ..data import UNK
from ..errors import TransformerError
from ..text import visible
from .common import add_model

if TYPE_CHECKING:  # the model and decoding are imported when the command runs: its --help needs no torch
    from ..decoding import BeamSearch

N_BEST_HEADER = "score\tlog-prob\ttranslation"  # the columns --n-best prints
_N_BEST_SHOWN = N_BEST_HEADER.replace("\t", "<TAB>")


def register(sub: argparse._SubParsersAction) -> None:
    """The translate command and its flags."""
    tr = sub.add_parser("translate", help="translate sentences with a saved model (greedy, beam search or sampling)")
    add_model(tr)
    tr.add_argument("--steps", action="store_true", help="also print every step (top-3 tokens, or the beams)")
    tr.add_argument(
        "--beam",
        type=int,
        metavar="K",
        help=f"beam search with K beams, 1 to {MAX_BEAM_SIZE} (paper: 4; default: greedy decoding)",
    )
    tr.add_argument(
        "--length-penalty",
        type=float,
        metavar="A",
        help="beam search: score = log-prob / ((5 + length) / 6)^A, A "
        f"from 0 to {MAX_LENGTH_PENALTY:g} (paper: 0.6; default: 0, the score is the log-prob)",
    )
    tr.add_argument(
        "--n-best",
        type=int,
        metavar="N",
        help=f"beam search: print the N best, one per line, under the header line {_N_BEST_SHOWN}: "
        "score is the length-normalised log-probability (see --length-penalty), log-prob the log-probability of the "
        "tokens and E (default: only the best translation, without numbers)",
    )
    tr.add_argument("--sample", action="store_true", help="draw every next token at random")
    tr.add_argument(
        "--temperature",
        type=float,
        metavar="T",
        help="sampling: the logits are divided by T, any number above 0; below 1 sharper, above 1 flatter (default: 1)",
    )
    tr.add_argument(
        "--top-k", type=int, metavar="K", help="sampling: draw only among the K most probable tokens (default: 0, all)"
    )
    tr.add_argument(
        "--top-p",
        type=float,
        metavar="P",
        help="sampling: draw only among the fewest most probable "
        "tokens whose probabilities add up to P, above 0 and at most 1 (default: 1, all)",
    )
    tr.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help=f"sampling: seed of the draws, 0 to {MAX_SEED:,}; the same seed gives the same output (default: 0)",
    )
    tr.add_argument(
        "sentences", nargs="+", metavar="SENTENCE", help="a sentence to translate (quote it if it has spaces)"
    )


_SAMPLING_FLAGS = {"temperature": "--temperature", "top_k": "--top-k", "top_p": "--top-p", "seed": "--seed"}


def _check_strategy(args: argparse.Namespace) -> None:
    """One strategy at a time, each setting with its own strategy, every value in range."""
    from ..decoding import check_beam, check_sampling

    if args.beam is not None and args.sample:
        raise TransformerError("--beam and --sample cannot be used together: pick one way of decoding.")
    if args.beam is None and (args.length_penalty is not None or args.n_best is not None):
        flag = "--length-penalty" if args.length_penalty is not None else "--n-best"
        raise TransformerError(f"{flag} needs --beam K (beam search).")
    loose = [flag for name, flag in _SAMPLING_FLAGS.items() if getattr(args, name) is not None]
    if loose and not args.sample:
        raise TransformerError(f"{loose[0]} needs --sample.")
    if args.beam is not None:
        check_beam(args.beam, args.length_penalty or 0.0, args.n_best)
    if args.sample:
        check_sampling(**_sampling_settings(args))


def _sampling_settings(args: argparse.Namespace) -> dict:
    return {name: getattr(args, name) for name in _SAMPLING_FLAGS if getattr(args, name) is not None}


def _top3(probs, vocab) -> str:
    top = probs.topk(min(3, probs.numel()))
    return "  ".join(f"{visible(vocab.itos[i])} {p:.3f}" for p, i in zip(top.values.tolist(), top.indices.tolist()))


def _print_steps(steps, stop_reason: str, vocab) -> None:
    """Greedy or sampling steps: the decoder input, the token chosen, the top 3 of the distribution it came from."""
    from ..decoding import SampleStep

    for step in steps:
        probs = step.final if isinstance(step, SampleStep) else step.probs
        words = visible(" ".join(step.dec_input))
        print(f"  step {step.step}: {words} → {visible(step.token)}   [{_top3(probs, vocab)}]")
    print(f"  stopped: {'E reached' if stop_reason == 'eos' else 'length cap reached'}")


def _print_beam_steps(result: BeamSearch) -> None:
    """Beam search steps: the beams kept and the hypotheses finished, with log-probabilities, and how many pruned."""
    for step in result.steps:
        paths = {"kept": [], "finished": [], "pruned": []}
        for c in sorted(step.candidates, key=lambda c: c.log_prob, reverse=True):
            words = " ".join(step.beams[c.parent][1:] + [c.token])
            paths[c.status].append(f"{visible(words)} {c.log_prob:.3f}")
        kept, finished = " | ".join(paths["kept"]) or "-", " | ".join(paths["finished"]) or "-"
        print(f"  step {step.step}: kept {kept}   finished {finished}   pruned {len(paths['pruned'])}")
    if result.stop_reason == "max_len":
        reason = "length cap reached"
    else:
        best = "best hypothesis" if result.beam_size == 1 else f"{result.beam_size} best hypotheses"
        reason = f"no beam alive could still enter the {best}"
    print(f"  stopped: {reason}")


def run(args: argparse.Namespace) -> None:
    """Translate every sentence with the strategy the flags choose, and its steps when asked."""
    from ..decoding import beam_search, sample
    from ..opening import open_model

    _check_strategy(args)
    translator = open_model(args.model)
    model, vocab = translator.model, translator.tgt_vocab
    for sentence in args.sentences:
        enc_input, _, unknown = translator.encode_source(sentence)
        if unknown:
            print(f"  (unknown words read as {UNK}: {visible(' '.join(unknown))})", file=sys.stderr)
        if args.beam is not None:
            result = beam_search(model, enc_input, vocab, args.beam, args.length_penalty or 0.0, n_best=args.n_best)
            if args.n_best is None:
                print(visible(translator.detokenize(result.best.tokens)))
            else:
                print(N_BEST_HEADER)
            for hypothesis in result.hypotheses if args.n_best is not None else []:
                print(
                    f"{hypothesis.score:.4f}\t{hypothesis.log_prob:.4f}\t{visible(translator.detokenize(hypothesis.tokens))}"
                )
            if args.steps:
                _print_beam_steps(result)
            if args.n_best is not None:
                print()
            continue
        if args.sample:
            result = sample(model, enc_input, vocab, **_sampling_settings(args))
        else:
            result = translator.translate(sentence, return_attn=False)
        print(visible(translator.detokenize(result.tokens)))
        if args.steps:
            _print_steps(result.steps, result.stop_reason, vocab)
