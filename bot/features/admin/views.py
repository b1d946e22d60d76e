"""``/reload``'s report for the bot's administrators."""

from __future__ import annotations

from bot.banks.reload import ReloadReport
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render.text import MESSAGE_LIMIT


def reload_report(report: ReloadReport, lang: Lang) -> Safe:
    """What the reload added, changed, removed and refused; the validator's problems (in
    ``lang``) are cut to what fits one message."""
    lines = [t(lang, "reload_head", count=report.served)]
    for key, ids in (
        ("reload_added", report.added),
        ("reload_changed", report.changed),
        ("reload_removed", report.removed),
    ):
        if ids:
            lines.append(t(lang, key, names=join(", ", [html("<code>{}</code>", i) for i in ids])))
    for refused in report.refused:
        head = t(lang, "reload_refused", file=html("<code>{}</code>", refused.file))
        if refused.kept:
            head = join(
                " ", [head, t(lang, "reload_kept", id=html("<code>{}</code>", refused.kept))]
            )
        lines.append(head)
        lines += [html("• {}", p.text(lang)) for p in refused.problems]
    if report.unchanged:
        lines.append(t(lang, "reload_same"))
    lines.append(t(lang, "reload_running"))
    kept: list[Safe] = []
    size = 0
    for line in lines:
        if size + len(line) + 2 > MESSAGE_LIMIT:
            return join("\n", [*kept, Safe("…")])
        kept.append(line)
        size += len(line) + 1
    return join("\n", kept)
