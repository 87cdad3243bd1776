"""UI strings of the navigation and the sidebar: current model, share and export, links, the model store."""

STRINGS: dict[str, dict[str, str]] = {
    # navigation and sidebar
    "nav.data": {"en": "Data", "zh": "数据"},
    # ui/browser.py: the hidden parts drawn while the first page is read (a screen reader never reaches them)
    "browser.parts": {"en": "Chart parts loaded early", "zh": "提前加载的图表组件"},
    "nav.train": {"en": "Train", "zh": "训练"},
    "nav.pe": {"en": "Positional encoding", "zh": "位置编码"},
    "nav.masks": {"en": "Masks", "zh": "掩码"},
    "nav.attention": {"en": "Attention", "zh": "注意力"},
    "nav.decoding": {"en": "Decoding", "zh": "解码"},
    "nav.inside": {"en": "Inside the model", "zh": "模型内部"},
    "nav.lab": {"en": "Lab", "zh": "实验室"},
    "sidebar.language": {"en": "Language · 语言", "zh": "语言 · Language"},
    "sidebar.model": {"en": "Current model", "zh": "当前模型"},
    "sidebar.source": {"en": "From: {source}", "zh": "来源：{source}"},
    "sidebar.params": {"en": "Parameters: {n}", "zh": "参数量：{n}"},
    "sidebar.vocab": {"en": "Vocabulary: {src} source / {tgt} target tokens", "zh": "词表：源 {src} / 目标 {tgt} 个词"},
    "sidebar.epochs": {"en": "Epochs trained: {n}", "zh": "已训练轮数：{n}"},
    "sidebar.loss": {"en": "Last loss: {loss}", "zh": "最后损失：{loss}"},
    "sidebar.server": {
        "en": "On this server: {running} training, {waiting} waiting.",
        "zh": "这台服务器上：{running} 个正在训练，{waiting} 个在排队。",
    },
    # links to a view and exports (sidebar, every page)
    "export.title": {"en": "Share and export", "zh": "分享与导出"},
    "link.copy": {"en": "Link to this view", "zh": "本视图的链接"},
    "link.copy_help": {
        "en": "Anyone who opens this link sees this page as it is now: the same sentence, settings, layer and head. "
        "Copy it with the button at the right of the box.",
        "zh": "打开这个链接的人会看到现在这个页面：同样的句子、设置、层和头。点框右侧的按钮即可复制。",
    },
    "link.replaced": {
        "en": "Some values in this link do not fit here and were replaced: {values}.",
        "zh": "链接中有些值在这里不适用，已被替换：{values}。",
    },
    "link.default": {"en": "the default", "zh": "默认值"},
    "link.cut": {"en": "{name}: the first {kept} of {given}", "zh": "{name}：{given} 个中只保留前 {kept} 个"},
    "state.replaced": {
        "en": "The current model cannot take some of the values you had here, so they were replaced: {values}.",
        "zh": "当前模型无法使用你在这里设的部分值，已被替换：{values}。",
    },
    "link.pair_missing": {
        "en": "the link's pair “{source}” is not in this tab's sentence pairs, so it is shown as a typed sentence",
        "zh": "链接中的句子对“{source}”不在这个标签页的数据里，所以作为输入的句子显示",
    },
    "link.other_model": {
        "en": "This link was made with the model “{name}” ({hash}); this tab's current model is “{current}” "
        "({current_hash}), so what you see may differ. Load that checkpoint on the Train page to see the same view.",
        "zh": "这个链接是用模型“{name}”（{hash}）生成的；这个标签页的当前模型是“{current}”（{current_hash}），"
        "所以看到的内容可能不同。请在“训练”页载入那个检查点，才能看到同样的视图。",
    },
    "link.this_model": {"en": "this tab's model", "zh": "这个标签页的模型"},
    "link.store_missing": {
        "en": "That model is not in this server's model store: it was never published, or it was removed to make room.",
        "zh": "这台服务器的模型库里没有那个模型：它从未发布过，或者为了腾出空间已被删除。",
    },
    "link.store_refused": {
        "en": "That model could not be opened from this server's model store: {reason}",
        "zh": "无法从这台服务器的模型库打开那个模型：{reason}",
    },
    "link.opened_model": {
        "en": "This tab now uses the model this link was made with ({hash}, {model}).",
        "zh": "这个标签页现在使用生成这个链接的模型（{hash}，{model}）。",
    },
    "link.own_model_kept": {
        "en": "Your own model ({name}) is kept: “Back to your model” in the sidebar brings it back.",
        "zh": "你自己的模型（{name}）还保留着：点侧边栏的“回到你自己的模型”即可换回。",
    },
    "link.carries_model": {
        "en": "The model is published, so the link opens it too.",
        "zh": "这个模型已经发布，所以链接也会打开它。",
    },
    "link.lacks_model": {
        "en": "The model is not published: the link opens this view with the model of whoever opens it. "
        "Publish it to send the model with the link.",
        "zh": "这个模型还没有发布：打开链接的人会用自己的模型看这个视图。发布它，链接就会带上这个模型。",
    },
    "store.publish": {"en": "Publish this model", "zh": "发布这个模型"},
    "store.publish_help": {
        "en": "Stores the current model on this server, so the link to any view opens it in any browser: on every "
        "process of a classroom, and after a restart. A published model never changes; publishing it again "
        "stores nothing new.",
        "zh": "把当前模型保存在这台服务器上，这样任何视图的链接都会在任何浏览器里打开它：课堂的每个进程都可以，"
        "服务器重启之后也可以。发布的模型不会再改变；再次发布不会重复保存。",
    },
    "store.name": {"en": "Name shown with it (optional)", "zh": "显示的名称（可选）"},
    "store.name_help": {
        "en": "Whoever opens the link sees this name, e.g. “Lesson 3: colours”.",
        "zh": "打开链接的人会看到这个名称，例如“第三课：颜色”。",
    },
    "store.published": {"en": "Published · {hash}", "zh": "已发布 · {hash}"},
    "store.published_help": {
        "en": "In this server's model store since {date}: links to this model's views open it in any browser.",
        "zh": "自 {date} 起保存在这台服务器的模型库中：这个模型的视图链接在任何浏览器里都会打开它。",
    },
    "store.done": {
        "en": "Published as {hash}: the link to this view now opens this model in any browser.",
        "zh": "已发布为 {hash}：这个视图的链接现在会在任何浏览器里打开这个模型。",
    },
    "store.already": {
        "en": "This model was published already ({hash}): the link to this view opens it in any browser.",
        "zh": "这个模型之前已经发布（{hash}）：这个视图的链接会在任何浏览器里打开它。",
    },
    "store.back": {"en": "Back to your model ({name})", "zh": "回到你自己的模型（{name}）"},
    "export.format": {"en": "Chart downloads", "zh": "图表下载格式"},
    "export.format_help": {
        "en": "The camera button in a chart's toolbar downloads it as PNG (for slides) or SVG (for print and editing), "
        "named after what it shows.",
        "zh": "图表工具栏里的相机按钮会把图表下载为 PNG（适合幻灯片）或 SVG（适合打印和编辑），文件名说明图的内容。",
    },
    "export.csv": {"en": "CSV", "zh": "CSV"},
    "export.sheet": {"en": "Lesson sheet (HTML)", "zh": "课堂讲义（HTML）"},
    "export.sheet_made": {
        "en": "Made with the Transformer playground on {date}. Every chart is interactive and works offline.",
        "zh": "由 Transformer 学习工具生成于 {date}。每个图表都可以交互，离线也能打开。",
    },
    "export.sheet_link": {"en": "This view in the app:", "zh": "在应用中打开这个视图："},
    "export.paper": {"en": "the paper's architecture", "zh": "论文中的结构"},
    "export.fingerprint": {"en": "Model fingerprint: {hash}", "zh": "模型指纹：{hash}"},
    "source.bundled": {"en": "bundled", "zh": "内置"},
    "source.trained": {"en": "trained here", "zh": "本页训练"},
    "source.uploaded": {"en": "uploaded", "zh": "上传"},
    "source.published": {"en": "published {date}", "zh": "发布于 {date}"},
    "source.published_named": {"en": "published {date}, {name}", "zh": "发布于 {date}，{name}"},
}
