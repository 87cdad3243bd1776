"""UI strings of background jobs (training, replay, lab runs) as the sidebar and the Train page show them."""

STRINGS: dict[str, dict[str, str]] = {
    # this tab's background job (sidebar, every page)
    "job.title.train": {"en": "Training", "zh": "正在训练"},
    "job.title.replay": {"en": "Replaying the bundled training", "zh": "正在重放内置模型的训练"},
    "job.title.lab": {"en": "Lab experiment", "zh": "实验"},
    "job.queued": {
        "en": "Waiting for a free place: number {place} in line ({running} training now). It starts by itself.",
        "zh": "正在排队：第 {place} 位（当前有 {running} 个在训练），轮到时会自动开始。",
    },
    "job.waiting": {"en": "starting…", "zh": "即将开始…"},
    "job.progress": {"en": "epoch {epoch}/{epochs} · loss {loss}", "zh": "第 {epoch}/{epochs} 轮 · 损失 {loss}"},
    "job.run.baseline": {"en": "baseline: ", "zh": "基线："},
    "job.run.variant": {"en": "variant: ", "zh": "变体："},
    "job.stopping": {"en": "Stopping after this epoch…", "zh": "本轮结束后停止…"},
    "job.stopping_epoch": {
        "en": "Stopping: finishing epoch {epoch} ({elapsed} s so far; an epoch takes about {seconds} s)…",
        "zh": "正在停止：第 {epoch} 轮还在进行（已用 {elapsed} 秒；每轮约 {seconds} 秒）…",
    },
    "job.stopping_first": {"en": "Stopping: finishing epoch {epoch}…", "zh": "正在停止：第 {epoch} 轮还在进行…"},
    "job.stopping_evaluating": {
        "en": "Stopping: evaluating the model trained so far ({elapsed} s so far)…",
        "zh": "正在停止：正在评估目前训练到的模型（已用 {elapsed} 秒）…",
    },
    "job.evaluating": {
        "en": "Training done: evaluating the model on its pairs ({elapsed} s so far)…",
        "zh": "训练完成：正在用句子对评估模型（已用 {elapsed} 秒）…",
    },
    "job.failed": {
        "en": "Training failed ({error}); your current model is unchanged.",
        "zh": "训练失败（{error}）；当前模型没有改变。",
    },
    "job.done.train": {
        "en": "Training finished after {epochs} epochs: the new model is now the current model.",
        "zh": "训练完成，共 {epochs} 轮：新模型已成为当前模型。",
    },
    "job.stopped.train": {
        "en": "Training stopped after epoch {epochs}: the partly trained model is now the current model.",
        "zh": "训练在第 {epochs} 轮后停止：训练到一半的模型已成为当前模型。",
    },
    "job.done.replay": {
        "en": "Replay finished ({epochs} epochs): the Attention page shows how the bundled model's attention formed.",
        "zh": "重放完成（{epochs} 轮）：“注意力”页可以看到内置模型的注意力如何形成。",
    },
    "job.stopped.replay": {
        "en": "Replay stopped after epoch {epochs}; the snapshots recorded so far are on the Attention page.",
        "zh": "重放在第 {epochs} 轮后停止；已记录的快照在“注意力”页。",
    },
    "job.done.lab": {
        "en": "Lab experiment finished ({epochs} epochs each): the Lab page compares the two models.",
        "zh": "实验完成（各 {epochs} 轮）：“实验室”页对比两个模型。",
    },
    "job.stopped.lab": {
        "en": "Lab experiment stopped after epoch {epochs}; the Lab page compares the partly trained models.",
        "zh": "实验在第 {epochs} 轮后停止；“实验室”页对比训练到一半的两个模型。",
    },
}
