"""Reading labelled JSONL/CSV and mapping files: good rows and errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from callcenter.routing import DataError, read_labelled
from callcenter.routing.data import apply_mapping, read_mapping, read_multi


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_jsonl_label_and_labels(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "d.jsonl",
        '{"text": "refund me", "label": "billing/refund"}\n\n'
        '{"text": "two needs", "labels": ["billing/refund", "account/login_help"]}\n',
    )
    assert read_labelled(p) == [
        ("refund me", "billing/refund"),
        ("two needs", "billing/refund"),
        ("two needs", "account/login_help"),
    ]
    assert read_multi(p)[1] == ("two needs", ["billing/refund", "account/login_help"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "invalid JSON"),
        ('["a list"]', "expected a JSON object"),
        ('{"label": "x"}', '"text"'),
        ('{"text": "hi"}', '"label" or "labels"'),
        ('{"text": "hi", "labels": []}', "non-empty list"),
        ('{"text": "hi", "label": 3}', "non-empty string"),
    ],
)
def test_jsonl_errors_name_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    p = write(tmp_path, "bad.jsonl", '{"text": "ok", "label": "a/b"}\n' + line + "\n")
    with pytest.raises(DataError) as err:
        read_labelled(p)
    assert f"{p}:2:" in str(err.value)
    assert message in str(err.value)


@pytest.mark.parametrize("column", ["label", "intent", "category"])
def test_csv_label_columns(tmp_path: Path, column: str) -> None:
    p = write(tmp_path, "d.csv", f'id,text,{column}\n1,"refund me, please",billing/refund\n2,hi,meta/greeting\n')
    assert read_labelled(p) == [("refund me, please", "billing/refund"), ("hi", "meta/greeting")]


def test_csv_explicit_column_and_bom(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "\ufeffText,Route,label\nhello,meta/greeting,ignored\n")
    assert read_labelled(p, label_column="route") == [("hello", "meta/greeting")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("words,label\nhi,a\n", "no 'text' column"),
        ("text,other\nhi,a\n", "label column"),
        ("text,label\nhi,a,extra\n", ":2: expected 2 fields"),
        ("text,label\nhi,a\n,b\n", ":3: empty text"),
        ("text,label\nhi,\n", ":2: empty label"),
        ("", "empty file"),
        ("text,label\n", "no labelled rows"),
    ],
)
def test_csv_errors(tmp_path: Path, content: str, message: str) -> None:
    p = write(tmp_path, "bad.csv", content)
    with pytest.raises(DataError, match=message):
        read_labelled(p)


def test_csv_unknown_explicit_column(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "text,label\nhi,a\n")
    with pytest.raises(DataError, match="no column 'route'"):
        read_labelled(p, label_column="route")


def test_missing_and_non_utf8(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        read_labelled(tmp_path / "nope.csv")
    p = tmp_path / "latin.csv"
    p.write_bytes("text,label\ncaf\xe9,a\n".encode("latin-1"))
    with pytest.raises(DataError, match="not UTF-8"):
        read_labelled(p)
    with pytest.raises(DataError, match="directory"):
        read_labelled(tmp_path)


def test_mapping_json_and_csv(tmp_path: Path) -> None:
    pairs = [("refund me", "refund"), ("weather?", "oos"), ("hi", "meta/greeting")]
    j = write(tmp_path, "m.json", '{"refund": "billing/refund"}')
    assert apply_mapping(pairs, read_mapping(j)) == [
        ("refund me", "billing/refund"),
        ("weather?", "oos"),
        ("hi", "meta/greeting"),
    ]
    c = write(tmp_path, "m.csv", "intent,target\nrefund,billing/refund\n")
    assert read_mapping(c) == {"refund": "billing/refund"}
    with pytest.raises(DataError, match="not in the mapping"):
        apply_mapping([("x", "unknown_flat")], {})
    with pytest.raises(DataError, match="intent' and 'target"):
        read_mapping(write(tmp_path, "bad.csv", "a,b\n1,2\n"))
