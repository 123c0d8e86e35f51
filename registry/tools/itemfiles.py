"""Writing registry item directories (item.toml + instance/instance.json) from the generators."""

import json
import shutil

DEFAULT_LIMITS = {"fuel": 50_000_000, "memory_bytes": 33_554_432, "timeout_ms": 2_000}


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)


def write_item(items_root, item_id, module, reference, counterexamples, metadata, instance,
               limits=DEFAULT_LIMITS, reference_score=None, files=None):
    """(Re)writes items_root/<id without its first segment>: item.toml and instance/instance.json.
    `reference_score`: for an item no known witness passes, the score its reference must reach.
    `files`: more instance files, name -> text (e.g. an image the model is shown)."""
    d = items_root / item_id.split("/", 1)[1]
    if d.exists():
        shutil.rmtree(d)
    (d / "instance").mkdir(parents=True)
    (d / "instance" / "instance.json").write_text(json.dumps(instance, separators=(",", ":")) + "\n")
    for name, text in sorted((files or {}).items()):
        (d / "instance" / name).write_text(text)
    lines = [f"id = {toml_str(item_id)}", f"module = {toml_str(module)}", 'payload = "raw"',
             f"reference = {toml_str(reference)}"]
    if reference_score is not None:
        lines.append(f"reference_score = {reference_score!r}")
    lines += ["", "[limits]"]
    lines += [f"{k} = {v:_}" for k, v in limits.items()]
    lines += ["", "[metadata]"]
    lines += [f"{k} = {toml_str(v)}" for k, v in metadata.items()]
    for payload, why in counterexamples:
        lines += ["", "[[counterexample]]", f"payload = {toml_str(payload)}", f"why = {toml_str(why)}"]
    (d / "item.toml").write_text("\n".join(lines) + "\n")
