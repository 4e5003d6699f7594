"""Read labelled utterances from JSONL or CSV, with errors that name the file and line."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DataError", "read_labelled", "read_multi", "read_mapping", "apply_mapping"]

LABEL_COLUMNS = ("label", "intent", "category")


class DataError(Exception):
    """A labelled-data file is missing, unreadable or has a bad row."""


def _open_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # -sig: spreadsheets often write a BOM
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, expected a .jsonl or .csv file") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None


def _is_jsonl(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return True
    if suffix in (".csv", ".tsv"):
        return False
    return text.lstrip().startswith("{")


def read_multi(path: Path, *, label_column: str | None = None) -> list[tuple[str, list[str]]]:
    """Every row as ``(text, labels)``; multi-intent JSONL rows keep all their labels."""
    path = Path(path)
    text = _open_text(path)
    rows = _read_jsonl(path, text) if _is_jsonl(path, text) else _read_csv(path, text, label_column)
    if not rows:
        raise DataError(f"{path}: no labelled rows")
    return rows


def read_labelled(path: Path, *, label_column: str | None = None) -> list[tuple[str, str]]:
    """``(text, label)`` pairs; a multi-intent row yields one pair per label."""
    return [(t, lab) for t, labels in read_multi(path, label_column=label_column) for lab in labels]


def _read_jsonl(path: Path, text: str) -> list[tuple[str, list[str]]]:
    rows: list[tuple[str, list[str]]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise DataError(f"{path}:{lineno}: expected a JSON object")
        utt = obj.get("text")
        if not isinstance(utt, str) or not utt.strip():
            raise DataError(f'{path}:{lineno}: missing or empty "text"')
        if "labels" in obj:
            labels = obj["labels"]
            if (
                not isinstance(labels, list)
                or not labels
                or not all(isinstance(x, str) and x.strip() for x in labels)
            ):
                raise DataError(f'{path}:{lineno}: "labels" must be a non-empty list of strings')
        elif "label" in obj:
            if not isinstance(obj["label"], str) or not obj["label"].strip():
                raise DataError(f'{path}:{lineno}: "label" must be a non-empty string')
            labels = [obj["label"]]
        else:
            raise DataError(f'{path}:{lineno}: needs a "label" or "labels" field')
        rows.append((utt.strip(), [x.strip() for x in labels]))
    return rows


def _read_csv(path: Path, text: str, label_column: str | None) -> list[tuple[str, list[str]]]:
    dialect: type[csv.Dialect] | csv.Dialect = csv.excel
    if path.suffix.lower() == ".tsv":
        dialect = csv.excel_tab
    reader = csv.reader(text.splitlines(), dialect)
    try:
        header = next(reader)
    except StopIteration:
        raise DataError(f"{path}: empty file") from None
    except csv.Error as exc:
        raise DataError(f"{path}:1: bad CSV header ({exc})") from None
    names = [h.strip().lower() for h in header]
    if "text" not in names:
        raise DataError(f"{path}:1: header has no 'text' column (columns: {', '.join(header)})")
    if label_column is not None:
        if label_column.strip().lower() not in names:
            raise DataError(
                f"{path}:1: no column {label_column!r} (columns: {', '.join(header)})"
            )
        label_idx = names.index(label_column.strip().lower())
    else:
        found = [c for c in LABEL_COLUMNS if c in names]
        if not found:
            raise DataError(
                f"{path}:1: header needs a label column named label, intent or category "
                f"(or pass --label-column); columns: {', '.join(header)}"
            )
        label_idx = names.index(found[0])
    text_idx = names.index("text")
    rows: list[tuple[str, list[str]]] = []
    try:
        for row in reader:
            lineno = reader.line_num
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise DataError(
                    f"{path}:{lineno}: expected {len(header)} fields, found {len(row)}"
                )
            utt, label = row[text_idx].strip(), row[label_idx].strip()
            if not utt:
                raise DataError(f"{path}:{lineno}: empty text")
            if not label:
                raise DataError(f"{path}:{lineno}: empty label")
            rows.append((utt, [label]))
    except csv.Error as exc:
        raise DataError(f"{path}:{reader.line_num}: bad CSV ({exc})") from None
    return rows


def read_mapping(path: Path) -> dict[str, str]:
    """Flat intent -> ``domain/specialist`` (or ``oos``) from JSON, YAML-free CSV or JSONL.

    JSON: one object ``{"refund": "billing/refund", ...}``. CSV: header with ``intent`` (or
    ``label``) and ``target`` (or ``maps_to``/``route``) columns.
    """
    path = Path(path)
    text = _open_text(path)
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{") and "\n{" not in text:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in obj.items()
        ):
            raise DataError(f"{path}: mapping must be a JSON object of string -> string")
        return {k.strip(): v.strip() for k, v in obj.items()}
    reader = csv.DictReader(text.splitlines())
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    src = next((f for f in ("intent", "label", "from") if f in fields), None)
    dst = next((f for f in ("target", "maps_to", "route", "to") if f in fields), None)
    if src is None or dst is None:
        raise DataError(f"{path}:1: mapping CSV needs 'intent' and 'target' columns")
    out: dict[str, str] = {}
    for row in reader:
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        if not row.get(src) or not row.get(dst):
            raise DataError(f"{path}:{reader.line_num}: empty intent or target")
        out[row[src]] = row[dst]
    return out


def apply_mapping(
    pairs: list[tuple[str, str]], mapping: Mapping[str, str], *, source: str = "data"
) -> list[tuple[str, str]]:
    """Map flat labels through ``mapping``; labels already in ``domain/x`` form pass through."""
    out: list[tuple[str, str]] = []
    missing: set[str] = set()
    for utt, label in pairs:
        if label in mapping:
            out.append((utt, mapping[label]))
        elif "/" in label or label == "oos":
            out.append((utt, label))
        else:
            missing.add(label)
    if missing:
        shown = ", ".join(sorted(missing)[:8])
        raise DataError(f"{source}: labels not in the mapping file: {shown}")
    return out
