"""``augnb export``: a saved model as BIF, XMLBIF, NET or ONNX."""

from __future__ import annotations

import argparse

from augnb.cli._common import UsageError, check_output_file, read_saved_model

__all__ = ["EXPORT_CHOICES", "cmd_export"]

#: The --format values (augnb.interop.api.EXPORT_FORMATS, copied so that
#: `augnb --help` imports none of the exporters).
EXPORT_CHOICES = ("bif", "xmlbif", "net", "onnx")


def cmd_export(args: argparse.Namespace) -> int:
    """Write a saved model in another tool's format."""
    from augnb.interop.api import export_naming_class

    output = check_output_file(
        args.output, "--output", inputs=[("the model file", args.model)]
    )
    try:
        estimator, info = read_saved_model(
            args.model, allow_pickle=args.allow_pickle, command="export"
        )
        saved = info.get("target")
        target = args.target or (saved if isinstance(saved, str) else None) or "class"
        path, node = export_naming_class(
            estimator, output, format=args.format, target=target
        )
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    print(
        f"wrote {type(estimator).__name__} as {args.format or path.suffix[1:]} to "
        f"{path} (class node {node!r})"
    )
    return 0
