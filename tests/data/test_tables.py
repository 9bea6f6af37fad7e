from __future__ import annotations

import bz2
import gc
import gzip
import io
import lzma
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest

from augnb.data.tables import (
    DataReadWarning,
    concat_batches,
    open_table,
    read_table,
)

CSV = "a,b,class\nx,1.5,P\ny,2.5,N\n"
# Typed: numbers are read as numbers, text as categories.
EXPECTED = {"a": ["x", "y"], "b": [1.5, 2.5], "class": ["P", "N"]}


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_delimiter_is_sniffed(tmp_path, sep):
    path = tmp_path / "t.csv"
    path.write_text(CSV.replace(",", sep))
    assert read_table(path).to_dict("list") == EXPECTED


def test_sep_overrides_sniffing(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("a;b\n1,2;3\n4,5;6\n")
    # A ;-separated file writing 1,2: the decimal comma is detected.
    assert read_table(path, sep=";").to_dict("list") == {
        "a": [1.2, 4.5],
        "b": [3, 6],
    }
    with pytest.warns(DataReadWarning, match="--decimal ,"):
        got = read_table(path, sep=";", decimal=".")
    assert got["a"].tolist() == ["1,2", "4,5"]


@pytest.mark.parametrize(
    "suffix, compress",
    [
        (".gz", gzip.compress),
        (".bz2", bz2.compress),
        (".xz", lzma.compress),
        (".bin", gzip.compress),  # recognised by content, not by name
    ],
)
def test_compressed_files(tmp_path, suffix, compress):
    path = tmp_path / f"t.csv{suffix}"
    path.write_bytes(compress(CSV.encode()))
    assert read_table(path).to_dict("list") == EXPECTED


@pytest.mark.parametrize(
    "name, format_name",
    [
        ("t.parquet", "Parquet"),
        ("t.feather", "Feather"),
        ("t.csv.gz", "gzip"),
        ("t.csv.zip", "zip"),
    ],
)
def test_a_name_its_bytes_deny_is_refused(tmp_path, name, format_name):
    # A mislabelled or truncated file is not read as a CSV of garbage.
    path = tmp_path / name
    path.write_text(CSV)
    with pytest.raises(ValueError, match=rf"{name}: the name says {format_name}"):
        read_table(path)


def test_a_gzip_named_csv_is_read_by_its_bytes(tmp_path):
    # The bytes decide: a compressed file with a plain name is still read.
    path = tmp_path / "t.csv"
    path.write_bytes(gzip.compress(CSV.encode()))
    assert read_table(path).to_dict("list") == EXPECTED


def _zipped(text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("inner.csv", text)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "compress", [gzip.compress, bz2.compress, lzma.compress, _zipped]
)
def test_compressed_files_are_closed(tmp_path, compress):
    # Every file opened to read a compressed table (its first bytes, its
    # batches, a bad row's line) is closed, not left to the garbage collector.
    path = tmp_path / "t.csv.bin"
    path.write_bytes(compress(CSV.encode()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        read_table(path)
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_zip_with_one_member(tmp_path):
    path = tmp_path / "t.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("inner.csv", CSV)
    assert read_table(path).to_dict("list") == EXPECTED
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("other.csv", CSV)
    with pytest.raises(ValueError, match="exactly one table"):
        read_table(path)


def test_bom_and_encodings(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + CSV.encode())
    assert list(read_table(path).columns) == ["a", "b", "class"]
    latin = tmp_path / "latin.csv"
    latin.write_bytes("a,class\ncafé,P\nthé,N\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin\.csv.*line 2.*--encoding latin-1"):
        read_table(latin)
    assert read_table(latin, encoding="latin-1")["a"].tolist() == ["café", "thé"]
    with pytest.raises(ValueError, match="unknown encoding"):
        read_table(latin, encoding="klingon")


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("utf-16", "utf-16"),
        ("utf-32", "utf-32"),
        ("utf-16-le", "utf-16-le"),
        ("utf-16-be", "utf-16-be"),
    ],
)
def test_a_utf16_file_is_refused_with_its_own_encoding_as_the_fix(
    tmp_path, written, named
):
    # latin-1, the usual fix, would read it as letters and NULs; without a
    # byte-order mark it is valid UTF-8 whose names are full of NULs.
    path = tmp_path / "wide.csv"
    path.write_bytes(CSV.encode(written))
    with pytest.raises(ValueError, match=rf"wide\.csv: .*--encoding {named}\b"):
        read_table(path)
    assert read_table(path, encoding=named).to_dict("list") == EXPECTED


@pytest.mark.parametrize(
    ("written", "named", "fix"),
    [
        ("utf-8-sig", "latin-1", "leave --encoding out"),
        ("utf-8-sig", "cp1252", "leave --encoding out"),
        ("utf-16", "latin-1", "give --encoding utf-16"),
    ],
)
def test_an_encoding_the_byte_order_mark_denies_is_refused(
    tmp_path, written, named, fix
):
    # Read as latin-1, a UTF-8 mark was the first column's name's "ï»¿".
    path = tmp_path / "marked.csv"
    path.write_bytes(CSV.encode(written))
    with pytest.raises(ValueError, match=rf"marked\.csv: .*byte-order mark.* {fix}"):
        read_table(path, encoding=named)


@pytest.mark.parametrize(
    ("encoding", "written"),
    [("utf-8", "utf-8-sig"), ("UTF8", "utf-8-sig"), ("utf-16-le", "utf-16-le")],
)
def test_a_byte_order_mark_is_no_part_of_a_name_whatever_the_encoding_given(
    tmp_path, encoding, written
):
    # Excel's "CSV UTF-8" starts with a byte-order mark; naming the encoding
    # (--encoding utf-8) must not make it part of the first column's name.
    path = tmp_path / "bom.csv"
    text = CSV if written != "utf-16-le" else "\ufeff" + CSV
    path.write_bytes(text.encode(written))
    assert read_table(path, encoding=encoding).to_dict("list") == EXPECTED


def test_parquet_feather_and_frames(tmp_path):
    frame = pd.DataFrame(
        {
            "a": pd.Categorical(["x", "y", None]),
            "n": np.array([1, 2, 3], dtype=np.int8),
            "f": [1.0, np.nan, 3.0],
            "g": [0.5, 2.0, 1.25],
            "class": ["P", "N", "P"],
        }
    )
    frame.to_parquet(tmp_path / "t.parquet")
    frame.to_feather(tmp_path / "t.feather")
    for source in (tmp_path / "t.parquet", tmp_path / "t.feather", frame):
        got = read_table(source)
        # Types kept as stored: no text round trip.
        assert got["n"].dtype == np.int8
        assert got["g"].tolist() == [0.5, 2.0, 1.25]
        assert got["f"].isna().tolist() == [False, True, False]
        assert got["a"].astype(object).tolist()[:2] == ["x", "y"]
        assert pd.isna(got["a"].iloc[2])
        assert got["class"].astype(object).tolist() == ["P", "N", "P"]
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(ValueError, match=r"bad\.parquet: not a readable parquet"):
        read_table(tmp_path / "bad.parquet")


@pytest.mark.parametrize("suffix", ["parquet", "feather"])
def test_the_row_labels_pandas_writes_are_no_column(tmp_path, suffix):
    # A sampled or filtered frame's index is written as a column
    # `__index_level_0__`, which pandas reads back as the index; augnb read it
    # as a feature (a continuous one, a value per row). A named index stays a
    # column, as an id column can be.
    frame = pd.DataFrame({"a": ["x", "y", "x", "y"], "class": ["P", "N", "P", "N"]})
    sampled = frame.iloc[[3, 1, 0]]
    path = tmp_path / f"t.{suffix}"
    getattr(sampled, f"to_{suffix}")(path)
    assert read_table(path).columns.tolist() == ["a", "class"]
    reader = open_table(path, batch_rows=2)
    assert reader.columns == ["a", "class"]
    assert concat_batches(list(reader))["a"].astype(object).tolist() == ["y", "y", "x"]
    getattr(sampled.rename_axis("row"), f"to_{suffix}")(path)
    assert read_table(path).columns.tolist() == ["a", "class", "row"]


@pytest.mark.parametrize("suffix", ["parquet", "feather"])
def test_a_category_column_keeps_its_declared_categories(tmp_path, suffix):
    # A pandas category column with a category no row holds: pandas and
    # Dask read it back with that category, which the model counts as a
    # level (smoothed). The reader kept only the words present (a category
    # of numbers kept them all), so fit_files and `augnb fit` gave another
    # model than a DataFrame or Dask of the same file (up to 0.016 apart).
    # (A category of numbers is read as pandas reads it: from Feather with
    # its categories, from Parquet, which Arrow reads back as plain
    # integers, as integers.)
    import augnb

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    frame = pd.DataFrame(
        {
            "size": pd.Categorical(
                np.array(["lo", "hi"])[(y + rng.integers(0, 2, 120)) % 2],
                categories=["lo", "hi", "never"],
            ),
            "code": pd.Categorical(
                (y + rng.integers(0, 2, 120)) % 2, categories=[0, 1, 7]
            ),
            "class": np.array(["n", "p"])[y],
        }
    )
    path = tmp_path / f"t.{suffix}"
    getattr(frame, f"to_{suffix}")(path)
    got = read_table(path)
    assert got["size"].cat.categories.tolist() == ["hi", "lo", "never"]
    typed = getattr(pd, f"read_{suffix}")(path)
    ref = augnb.NaiveBayes().fit(typed.drop(columns="class"), typed["class"])
    model = augnb.fit_files(augnb.NaiveBayes(), path, target="class")
    assert model.schema_ == ref.schema_
    X = typed.drop(columns="class")
    np.testing.assert_allclose(model.predict_proba(X), ref.predict_proba(X), atol=1e-12)


def test_a_model_fitted_on_a_loaded_file_reads_that_file_back(tmp_path):
    # datasets.load reads a CSV's numbers as numbers and types a discrete
    # column as text: codes written 01, 1.0 or true become the categories
    # "1", "1" and "True". Predicting the same file read those cells as the
    # file spells them, so every one was an unseen value, silently summed
    # out (probabilities off by up to 0.54 on this table). Text categories
    # spelled as augnb spells numbers are read as numbers and spelled so.
    import augnb
    from augnb.data.tables import model_kinds
    from augnb.datasets import load

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)

    def pick(words):
        return np.array(words)[(y + rng.integers(0, 2, 200)) % len(words)]

    path = tmp_path / "codes.csv"
    pd.DataFrame(
        {
            "code": pick(["01", "02", "03"]),
            "whole": np.where(rng.random(200) < 0.1, "", pick(["1.0", "2.0"])),
            "flag": pick(["true", "false"]),
            "word": pick(["01", "x"]),  # text: its spelling is kept
            "label": np.array(["no", "yes"])[y],
        }
    ).to_csv(path, index=False)
    X, labels = load(path, target="label")
    assert X["code"].cat.categories.tolist() == ["1", "2", "3"]
    assert X["flag"].cat.categories.tolist() == ["False", "True"]
    model = augnb.NaiveBayes().fit(X, labels)
    assert model_kinds(model, "label")["discrete"] == ["word", "label"]
    out = tmp_path / "p.parquet"
    augnb.predict_files(model, path, out, target="label")
    np.testing.assert_allclose(
        pd.read_parquet(out).to_numpy(), model.predict_proba(X), rtol=0, atol=1e-12
    )


def test_whitespace_stripped_and_missing_tokens(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text(" a , b \n red ,?\nred,  \n")
    table = read_table(path)
    assert list(table.columns) == ["a", "b"]
    assert table["a"].tolist() == ["red", "red"]
    assert table["b"].isna().all()


@pytest.mark.parametrize(
    ("name", "text", "error", "match"),
    [
        (
            "dup.csv",
            "a,b,a\n1,2,3\n",
            ValueError,
            r"dup\.csv: duplicate column name\(s\) \['a'",
        ),
        ("h.csv", "a,b,class\n", ValueError, r"header .*no data rows"),
        (
            "r.csv",
            "a,b,class\n1,2,P\n1,2,3,N\n4,5,P\n",
            ValueError,
            r"r\.csv: line 3 has 4 field\(s\).*has 3",
        ),
        ("s.csv", "a,b,class\n1,2,P\n1,N\n", ValueError, r"line 3 has 2 field"),
        ("e.csv", "", ValueError, "empty"),
        ("nope.csv", None, FileNotFoundError, "does not exist"),  # not written
    ],
)
def test_refusals_name_the_file_and_line(tmp_path, name, text, error, match):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(error, match=match):
        read_table(path)


def test_refuses_a_directory_and_duplicate_frame_columns(tmp_path):
    with pytest.raises(FileNotFoundError, match="directory"):
        read_table(tmp_path)
    with pytest.raises(ValueError, match="duplicate"):
        read_table(pd.DataFrame([[1, 2]], columns=["a", "a"]))


def test_decimal_columns_are_numbers(tmp_path):
    # A database export stores amounts as decimals: they are numbers (a
    # continuous column, or integers for a scale of 0), not one category per
    # amount that no model file could hold.
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    D = decimal.Decimal
    table = pa.table(
        {
            "amount": pa.array([D("1.25"), None, D("-3.50")], pa.decimal128(10, 2)),
            "code": pa.array([D(7), D(8), D(9)], pa.decimal128(12, 0)),
            "gappy": pa.array([D(7), None, D(9)], pa.decimal128(12, 0)),
            "class": ["P", "N", "P"],
        }
    )
    pq.write_table(table, tmp_path / "t.parquet")
    got = read_table(tmp_path / "t.parquet")
    assert got["amount"].dtype == np.float64
    assert got["amount"].isna().tolist() == [False, True, False]
    assert got["amount"].dropna().tolist() == [1.25, -3.5]
    assert got["code"].dtype == np.int64 and got["code"].tolist() == [7, 8, 9]
    # Whole numbers with a gap: how pandas holds integers with missing cells.
    assert got["gappy"].dtype == np.float64 and got["gappy"].isna().sum() == 1


def test_nested_columns_are_refused_naming_the_column_and_fix(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"x": ["a", "b"], "tags": [[1, 2], [3]], "class": ["P", "N"]})
    pq.write_table(table, tmp_path / "t.parquet")
    with pytest.raises(ValueError) as refused:
        read_table(tmp_path / "t.parquet")
    message = str(refused.value)
    for word in ("t.parquet", "'tags'", "list<", "--drop tags"):
        assert word in message, message
    # Left out, the table reads.
    assert read_table(tmp_path / "t.parquet", columns=["x", "class"]).shape == (2, 2)


@pytest.mark.parametrize("suffix", ["parquet", "feather"])
@pytest.mark.parametrize("kind", ["binary", "large_binary", "dictionary"])
def test_a_column_of_bytes_is_refused_by_name_not_as_an_encoding(
    tmp_path, suffix, kind
):
    # --encoding, a CSV's fix for text that is not UTF-8, reads no Parquet.
    import pyarrow as pa
    import pyarrow.feather as pf
    import pyarrow.parquet as pq

    blob = pa.array([b"\x00\xff", b"ab"])
    blob = {
        "binary": blob,
        "large_binary": blob.cast(pa.large_binary()),
        "dictionary": blob.dictionary_encode(),
    }[kind]
    table = pa.table({"x": ["a", "b"], "blob": blob, "class": ["P", "N"]})
    path = tmp_path / f"t.{suffix}"
    (pq.write_table if suffix == "parquet" else pf.write_feather)(table, path)
    with pytest.raises(ValueError, match=r"'blob' holds bytes") as refused:
        read_table(path)
    message = str(refused.value)
    assert f"t.{suffix}" in message and "--drop blob" in message, message
    assert "encoding" not in message, message
    assert read_table(path, columns=["x", "class"]).shape == (2, 2)


def test_lines_before_the_header_are_skipped(tmp_path):
    # Some exports start with a blank line, or with Excel's "sep=;" line that
    # names the delimiter: the header is the first line after them, never a
    # row of data (its words would become a class and stray cells).
    cases = {
        "blank.csv": "\n\n" + CSV,
        "spaces.csv": "  \n" + CSV,
        "excel.csv": "sep=;\n" + CSV.replace(",", ";").replace(".", ","),
        "excel_blank.csv": "\nsep=|\n" + CSV.replace(",", "|"),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        got = read_table(path)
        assert {c: got[c].tolist() for c in got.columns} == EXPECTED, name
    # A ragged row is named by its line in the file.
    (tmp_path / "ragged.csv").write_text("\n\n" + CSV + "z,3.5,P,extra\n")
    with pytest.raises(ValueError, match="line 6 has 4 field"):
        read_table(tmp_path / "ragged.csv")


def test_quoted_line_breaks_in_the_header_and_cells(tmp_path):
    # A spreadsheet's wrapped header cell is a quoted line break, as pandas
    # writes it: the header is one CSV record, whatever its lines.
    frame = pd.DataFrame(
        {"total\namount": [1, 2, 3], "note": ["a\nb", "c", "d"], "k": ["x", "y", "x"]}
    )
    frame.to_csv(tmp_path / "wrapped.csv", index=False)
    back = read_table(tmp_path / "wrapped.csv")
    assert list(back.columns) == ["total\namount", "note", "k"]
    assert back["note"].tolist() == ["a\nb", "c", "d"]
    assert back["total\namount"].tolist() == [1, 2, 3]


def test_blank_lines_before_the_header(tmp_path):
    # Arrow's skip_rows counts them: the header was read as a data row.
    (tmp_path / "blank.csv").write_text("\n\ncolour,n\nred,1\nblue,2\n")
    back = read_table(tmp_path / "blank.csv")
    assert back["colour"].tolist() == ["red", "blue"]
    assert back["n"].tolist() == [1, 2]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # pandas' to_csv writes its index as a first column without a name.
        (",a,class\n0,x,P\n1,y,N\n", ["[1]", "index=False"]),
        # A delimiter at the end of every line makes an empty last column.
        ("a,class,\nx,P,\ny,N,\n", ["[3]", "end of every line"]),
        # Several blank names are blank, not duplicates.
        ("a,,,class\nx,1,2,P\ny,3,4,N\n", ["[2, 3]"]),
    ],
)
def test_unnamed_columns_are_named_by_position_with_the_likely_cause(
    tmp_path, text, words
):
    path = tmp_path / "t.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match="have no name") as refused:
        read_table(path)
    for word in words:
        assert word in str(refused.value), str(refused.value)


def test_spreadsheet_workbooks_are_refused_with_the_fix(tmp_path):
    # An Excel file given as a table: neither a zip of 2 files nor text in
    # another encoding (whose fix, --encoding, would read binary as text).
    xlsx = tmp_path / "book.xlsx"
    with zipfile.ZipFile(xlsx, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    xls = tmp_path / "old.xls"
    xls.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(512))
    for path in (xlsx, xls):
        with pytest.raises(ValueError, match="spreadsheet") as refused:
            read_table(path)
        message = str(refused.value)
        assert path.name in message and "CSV" in message, message
        assert "encoding" not in message and "exactly one" not in message


@pytest.mark.parametrize(
    ("name", "content", "what"),
    [
        ("t.jsonl", b'{"a": "x", "class": "P"}\n{"a": "y", "class": "N"}\n', "JSON"),
        ("t.json", b'\xef\xbb\xbf [{"a": "x", "class": "P"}]', "JSON"),
        ("t.html", b"<table><tr><th>a</th></tr></table>\n", "an HTML or XML"),
        ("t.orc", b"ORC\x1d\x00\x00\x00\n\x06\x12\x83", "an ORC file"),
        ("t.arrows", b"\xff\xff\xff\xff\x98\x00\x00\x00\x10\x00", "an Arrow stream"),
        # Named as what augnb reads, they are still named by their bytes.
        ("v1.feather", b"FEA1\x00\x00\x00\x00", r"an old Feather \(version 1\) file"),
        ("orc.parquet", b"ORC\x1d\x00\x00\x00\n\x06\x12\x83", "an ORC file"),
    ],
)
def test_other_formats_are_refused_naming_the_format(tmp_path, name, content, what):
    # Read as a CSV, JSON or HTML gave a table of braces, and a binary format
    # "not UTF-8: give the file's encoding", whose fix reads binary as text.
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError, match=rf"{name}: {what}") as refused:
        read_table(path)
    message = str(refused.value)
    assert "CSV, Parquet or Feather" in message and "encoding" not in message


def test_model_files_given_as_tables_are_refused_with_the_fix(tmp_path):
    # `augnb predict DATA MODEL` the wrong way round, or a model to inspect:
    # neither "a zip file must hold exactly one table" nor an encoding error.
    import joblib

    from augnb import NaiveBayes, save_model
    from augnb.datasets import load

    X, y = load("iris")
    model = save_model(NaiveBayes().fit(X, y), tmp_path / "m.augnb")
    old = tmp_path / "old.joblib"
    joblib.dump({"estimator": None}, old)
    for path, what in ((model, "an augnb model file"), (old, "a Python pickle")):
        with pytest.raises(ValueError, match=what) as refused:
            read_table(path)
        message = str(refused.value)
        assert path.name in message and "augnb predict MODEL DATA" in message
        assert "encoding" not in message and "exactly one" not in message
        if path == old:
            # augnb inspect reads no pickle: the conversion is the fix.
            assert "load_model(path, allow_pickle=True)" in message


def test_file_lines_count_the_lines_that_are_no_rows(tmp_path):
    from augnb.data.tables import check_labels, open_table

    path = tmp_path / "t.csv"
    # A header over two lines, blank lines, a quoted line break, CRLF ends.
    path.write_bytes(
        b'\r\n"a\r\nx",class\r\n1,p\r\n\r\n"2\r\n3",\r\n4,q\r\n5,\r\n'
    )
    reader = open_table(path)
    assert reader.file_lines([0, 1, 2, 3]) == [4, 6, 8, 9]
    # A batch's rows, counted from the file's first data row.
    y = pd.Series([None, "q", None], name="class")
    where = r"of the first 4 .* line\(s\) 6, 9 \(the header is line 2\)"
    with pytest.raises(ValueError, match=where):
        check_labels(y, str(path), 1, whole=False, source=path)
    # Without the file, the rows are counted (not called lines).
    with pytest.raises(ValueError, match=r"data row\(s\) 2, 4 \(counting from 1 aft"):
        check_labels(y, str(path), 1)


@pytest.mark.parametrize("suffix", [".parquet", ".feather"])
def test_a_typed_files_text_of_numbers_stays_text_and_is_named(tmp_path, suffix):
    # A text column was stored as text on purpose: categories ("01" and "1"
    # stay two), with a warning naming the two fixes; a category column (a
    # dictionary, of words or of numbers) is categories without one, and a
    # column declared discrete is meant.
    frame = pd.DataFrame(
        {
            "zip": pd.Series(["01", "1", "20", "?"] * 5, dtype="str"),
            "coded": pd.Categorical(["1", "2", "3", "4"] * 5),
            "level": pd.Categorical([0.5, 1.0, 1.5, 2.0] * 5),
        }
    )
    path = tmp_path / f"t{suffix}"
    getattr(frame, f"to_{suffix[1:]}")(path)
    with pytest.warns(DataReadWarning) as caught:
        read = read_table(path)
    assert [(w.message.column, w.message.problem) for w in caught] == [
        ("zip", "text_numbers")
    ]
    assert "--discrete zip" in str(caught[0].message)
    assert read["zip"].cat.categories.tolist() == ["01", "1", "20"]
    assert read["zip"].isna().sum() == 5
    assert read["coded"].cat.categories.tolist() == ["1", "2", "3", "4"]
    if suffix == ".feather":  # Parquet keeps no dictionary of numbers
        assert read["level"].cat.categories.tolist() == [0.5, 1.0, 1.5, 2.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_table(path, discrete=["zip"])


def test_a_text_column_of_nulls_read_as_numbers_is_missing(tmp_path):
    # A Parquet text column with no value (in the file, or in one of its
    # batches) read as numbers, as a model's continuous column is: missing,
    # where it used to fail on an index with no word to look up.
    frame = pd.DataFrame(
        {"b": pd.Series([None, None, "1.5", "2.5"], dtype="str"), "k": [1, 2, 3, 4]}
    )
    path = tmp_path / "t.parquet"
    frame.to_parquet(path, row_group_size=2)
    whole = read_table(path, continuous=["b"])
    assert whole["b"].dtype == np.float64
    assert whole["b"].isna().tolist() == [True, True, False, False]
    batches = concat_batches(list(open_table(path, batch_rows=2, continuous=["b"])))
    pd.testing.assert_frame_equal(batches, whole)
    frame.head(2).to_parquet(path)
    assert read_table(path, continuous=["b"])["b"].isna().all()


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_column_read_as_numbers_holding_no_number_is_missing(tmp_path, suffix):
    # A column read as numbers (declared continuous, or a model's continuous
    # column) reads its words as missing, with the warning, whatever share of
    # its cells they are: all of them, or all of a batch's, as one of them.
    frame = pd.DataFrame(
        {
            "b": pd.Series(["n/a"] * 4 + ["1.5", "2.5"], dtype="str"),
            "words": pd.Series(["n/a"] * 6, dtype="str"),
        }
    )
    path = tmp_path / f"t{suffix}"
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, row_group_size=2)
    numbers = ["b", "words"]
    with pytest.warns(DataReadWarning) as caught:
        whole = read_table(path, continuous=numbers)
    assert [w.message.column for w in caught] == numbers
    assert "'n/a'; those cells are read as missing" in str(caught[1].message)
    assert whole["b"].tolist()[4:] == [1.5, 2.5]
    assert whole["b"].dtype == whole["words"].dtype == np.float64
    assert whole["b"].isna().sum() == 4 and whole["words"].isna().all()
    # Batch by batch (the first holds no number), the same columns.
    with pytest.warns(DataReadWarning):
        reader = open_table(path, batch_rows=2, continuous=numbers)
        batches = concat_batches(list(reader))
    pd.testing.assert_frame_equal(batches, whole)


@pytest.mark.parametrize(
    ("sep", "decimal", "mark"), [(";", ",", "."), (",", ".", ",")]
)
def test_thousands_separators_where_only_large_numbers_have_them(
    tmp_path, sep, decimal, mark
):
    # Amounts below 1000 have no separator (1.250,50 and 980,00 in one
    # column): the column is numbers, not words in a fifth of its cells.
    values = [980.0, 1250.5, 12.25, 640.0, -3.5] * 8

    def spell(v):
        text = f"{v:,.2f}".replace(",", "_").replace(".", decimal)
        return text.replace("_", mark)

    cells = [f'"{spell(v)}"' if sep == "," else spell(v) for v in values]
    path = tmp_path / "t.csv"
    path.write_text(
        f"amount{sep}class\n"
        + "".join(f"{c}{sep}{'AB'[k % 2]}\n" for k, c in enumerate(cells))
    )
    with pytest.warns(DataReadWarning, match="thousands separators"):
        got = read_table(path)
    assert got["amount"].tolist() == values


def test_decimal_commas_in_a_comma_separated_file_are_named(tmp_path):
    # Quoted decimal commas where the delimiter is a comma: they may be
    # labels ("1,5" as a version), so they stay categories, but never
    # silently: the warning gives the fix, and the fix reads numbers.
    path = tmp_path / "t.csv"
    path.write_text(
        "x,class\n" + "".join(f'"{k % 7},5",{"AB"[k % 2]}\n' for k in range(40))
    )
    with pytest.warns(DataReadWarning, match=r"'x'.*decimal comma.*--decimal ,") as w:
        got = read_table(path)
    assert w[0].message.problem == "decimal_comma"
    assert got["x"].cat.categories.tolist()[:2] == ["0,5", "1,5"]
    assert read_table(path, decimal=",")["x"].tolist()[:2] == [0.5, 1.5]


@pytest.mark.parametrize(
    ("inner", "content"),
    [
        ("Parquet", b"PAR1\x15\x04\x15\x10\x15\x14L\x15\x02"),
        ("JSON", b'{"a": "x", "class": "P"}\n'),
        ("zip", b"PK\x03\x04\x14\x00\x00\x00\x08\x00"),
    ],
)
def test_a_compressed_file_holding_no_csv_is_refused_naming_it(
    tmp_path, inner, content
):
    # A gzipped Parquet file, JSON or model: not "give the file's encoding".
    path = tmp_path / "t.gz"
    path.write_bytes(gzip.compress(content))
    with pytest.raises(ValueError, match=rf"t\.gz: a gzip file of {inner}") as refused:
        read_table(path)
    assert "encoding" not in str(refused.value)


def test_a_given_delimiter_that_leaves_one_column_is_named(tmp_path):
    # --sep ';' on a ,-separated file: one column named 'a,b,class'. It may
    # be meant (a table of one column), so a warning, with the delimiter the
    # header does use.
    path = tmp_path / "t.csv"
    path.write_text(CSV)
    with pytest.warns(DataReadWarning, match=r"t\.csv: with the delimiter ';'.*','"):
        got = read_table(path, sep=";")
    assert list(got.columns) == ["a,b,class"]
    assert list(read_table(path, sep=",").columns) == ["a", "b", "class"]


@pytest.mark.parametrize("sep", ["ab", ""])
def test_a_delimiter_of_other_than_one_character_is_refused_by_every_door(
    tmp_path, sep
):
    # As --sep says it, where Python gave the csv module's TypeError.
    path = tmp_path / "t.csv"
    path.write_text(CSV)
    with pytest.raises(ValueError, match=r"delimiter must be one character"):
        read_table(path, sep=sep)
    path.write_text(CSV.replace(",", "\t"))
    assert read_table(path, sep="tab").to_dict("list") == EXPECTED  # '\t' named


#: Fit-time advice: declaring a column's kind, or leaving it out. A fitted
#: model fixed its columns' kinds and reads every one of them.
_FIT_ADVICE = ("--discrete", "--continuous", "--drop", "discrete=", "continuous=",
               "discrete_features", "drop=", "fit with")


@pytest.fixture(scope="module")
def numbered_model():
    # "n": numbered categories (three integers); "code": numbered categories
    # declared discrete, 30 of them (a reader would take them for numbers);
    # "x": continuous.
    from augnb import NaiveBayes

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "n": rng.integers(1, 4, 300),
            "code": rng.integers(0, 30, 300),
            "x": rng.normal(size=300),
        }
    )
    y = rng.choice(["p", "q"], 300)
    model = NaiveBayes(discrete_features=["code"]).fit(frame, y)
    return model, frame


def _read_to_predict(path, model, **kw):
    """The model's columns of a file, read and typed as every predict door does."""
    from augnb.data.tables import model_kinds, typed_features

    raw = read_table(path, **model_kinds(model), **kw)
    return typed_features(raw, model, str(path))


@pytest.mark.parametrize("suffix", [".parquet", ".feather"])
def test_a_typed_files_text_of_a_models_numbers_is_read_without_a_warning(
    tmp_path, numbered_model, suffix
):
    # Text "1", "2", "3" where the model's categories are the numbers 1, 2,
    # 3: the model fixed the column's kind, so nothing is said (a fit would
    # name it, with the options that declare a kind), and the text is the
    # model's numbers.
    model, frame = numbered_model
    path = tmp_path / f"t{suffix}"
    getattr(frame.astype({"n": str, "code": str}), f"to_{suffix[1:]}")(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        X = _read_to_predict(path, model)
    np.testing.assert_array_equal(model.predict_proba(X), model.predict_proba(frame))
    # Read for a fit, each column is named with the options that declare it.
    with pytest.warns(DataReadWarning) as caught:
        read_table(path)
    assert sorted(w.message.column for w in caught) == ["code", "n"]
    assert all("--discrete" in str(w.message) for w in caught)


def test_decimal_commas_where_a_model_reads_numbers_name_the_decimal_option(
    tmp_path, numbered_model
):
    # Read with the point (--decimal .), "0,5" is a word: the fix is the
    # decimal mark, not "correct them".
    model, frame = numbered_model
    path = tmp_path / "t.csv"
    text = frame.round(3).to_csv(index=False, sep=";").replace(".", ",")
    path.write_text(text)
    with pytest.warns(DataReadWarning, match=r"column 'x' holds words .* decimal "
                      r"comma: read the file with --decimal ,") as caught:
        _read_to_predict(path, model, decimal=".")
    assert not any(advice in str(w.message) for w in caught for advice in _FIT_ADVICE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        X = _read_to_predict(path, model)
    np.testing.assert_allclose(X["x"], frame["x"].round(3))


def test_words_where_a_model_reads_numbers_are_named_with_what_prediction_does(
    tmp_path, numbered_model
):
    # A continuous column with a word (read as numbers, as the model reads
    # it) and a column of numbered categories a quarter of whose cells are
    # words (which a fit would keep as text, naming --continuous): both read
    # as missing, said in the words of prediction.
    model, frame = numbered_model
    rows = frame.astype({"x": object, "code": object})
    rows.loc[3, "x"] = "n/a"
    rows.loc[rows.index % 4 == 0, "code"] = "unknown"
    path = tmp_path / "t.csv"
    rows.to_csv(path, index=False)
    with pytest.warns(DataReadWarning) as caught:
        X = _read_to_predict(path, model)
    messages = {w.message.column: str(w.message) for w in caught}
    assert sorted(messages) == ["code", "x"]
    assert "holds words in 1 cell(s) ('n/a') where the model reads" in messages["x"]
    assert "holds words in 75 cell(s) ('unknown')" in messages["code"]
    for text in messages.values():
        assert "read as missing values, which prediction sums out" in text
        assert not any(advice in text for advice in _FIT_ADVICE), text
    expected = frame.astype({"code": float}).copy()
    expected.loc[3, "x"] = np.nan
    expected.loc[expected.index % 4 == 0, "code"] = np.nan
    np.testing.assert_array_equal(
        model.predict_proba(X), model.predict_proba(expected)
    )
    # Read for a fit, the same cells get a fit's advice.
    with pytest.warns(DataReadWarning) as caught:
        read_table(path)
    advice = {w.message.column: str(w.message) for w in caught}
    assert "--continuous code" in advice["code"] and "--discrete x" in advice["x"]


def test_a_word_far_down_a_models_numeric_column_is_named_without_fit_advice(
    tmp_path, numbered_model
):
    # Read in batches, a CSV's column of numbers in its first block holding a
    # word further down is read again as text after the rows yielded: the
    # word is a missing value, named with what prediction does with it (no
    # option to declare the column's kind), as the whole file reads it.
    model, frame = numbered_model
    rows = pd.concat([frame] * 200, ignore_index=True).astype({"x": object})
    rows.loc[len(rows) - 1, "x"] = "oops"
    path = tmp_path / "t.csv"
    rows.to_csv(path, index=False)
    from augnb.data.tables import model_kinds

    kinds = model_kinds(model)
    with pytest.warns(DataReadWarning, match="holds words in 1 cell") as caught:
        batches = list(open_table(path, batch_rows=1000, **kinds))
    assert len(batches) > 1
    text = " ".join(str(w.message) for w in caught)
    assert "where the model reads numbers" in text
    assert not any(advice in text for advice in _FIT_ADVICE), text
    with pytest.warns(DataReadWarning, match="holds words in 1 cell"):
        whole = read_table(path, **kinds)
    np.testing.assert_array_equal(
        np.concatenate([b["x"].to_numpy(dtype=float) for b in batches]),
        whole["x"].to_numpy(dtype=float),
    )
    # Not declared, the column is read as the whole file reads it: numbers,
    # the word missing and named with a fit's advice.
    with pytest.warns(DataReadWarning, match="'oops'") as caught:
        batches = list(open_table(path, batch_rows=1000))
    assert "--discrete x" in " ".join(str(w.message) for w in caught)
    with pytest.warns(DataReadWarning, match="'oops'"):
        whole = read_table(path)
    np.testing.assert_array_equal(
        np.concatenate([b["x"].to_numpy(dtype=float) for b in batches]),
        whole["x"].to_numpy(dtype=float),
    )


def test_a_fraction_far_down_a_numeric_column_is_read_as_numbers(
    tmp_path,
):
    # Arrow types a column of whole numbers in its first block as integers,
    # then refused a fraction further down (and a word, which a declared
    # continuous column reads as missing): read in batches, the declared
    # column is read again as text after the rows yielded, as the whole
    # file reads it.
    n = 60_000
    whole_numbers = np.arange(n, dtype=object) % 1000
    whole_numbers[-7] = "2.5"
    whole_numbers[-3] = "n/a"
    # A CSV is read in blocks of at least 1 MiB: 25 bytes a row.
    frame = pd.DataFrame({"a": ["x" * 20, "y" * 20] * (n // 2), "k": whole_numbers})
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    with pytest.warns(DataReadWarning, match="'n/a'"):
        whole = read_table(path, continuous=["k"])
    with pytest.warns(DataReadWarning, match="'n/a'"):
        batches = list(open_table(path, batch_rows=1000, continuous=["k"]))
    assert len(batches) > 1
    got = np.concatenate([b["k"].to_numpy(dtype=float) for b in batches])
    np.testing.assert_array_equal(got, whole["k"].to_numpy(dtype=float))
    assert got[-7] == 2.5 and np.isnan(got[-3]) and got.size == n
    # Not declared, the same: the whole file's text column of numbers is
    # read as numbers, its word named.
    with pytest.warns(DataReadWarning, match="'n/a'"):
        whole = read_table(path)
    with pytest.warns(DataReadWarning, match="'n/a'"):
        batches = list(open_table(path, batch_rows=1000))
    np.testing.assert_array_equal(
        np.concatenate([b["k"].to_numpy(dtype=float) for b in batches]),
        whole["k"].to_numpy(dtype=float),
    )


def test_a_word_far_down_a_column_of_few_whole_numbers_is_refused_in_batches(
    tmp_path,
):
    # The whole file reads a column of a few whole numbers and a word as
    # categories ("0", ..., "abc"); read in batches, its first blocks were
    # integers already, so the kind is left to the user, named with both
    # declarations.
    n = 60_000
    codes = (np.arange(n) % 5).astype(object)
    codes[-3] = "abc"
    frame = pd.DataFrame({"a": ["x" * 20, "y" * 20] * (n // 2), "k": codes})
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    assert read_table(path)["k"].cat.categories.tolist() == [
        "0", "1", "2", "3", "4", "abc"
    ]
    with pytest.raises(ValueError, match="holds 'abc' further down") as info:
        list(open_table(path, batch_rows=1000))
    assert "--continuous k" in str(info.value) and "--discrete k" in str(info.value)
    batches = list(open_table(path, batch_rows=1000, discrete=["k"]))
    assert pd.concat([b["k"].astype(object) for b in batches]).tolist() == (
        read_table(path)["k"].astype(object).tolist()
    )


def test_a_nested_column_a_model_reads_is_refused_without_fit_advice(
    tmp_path, numbered_model
):
    model, frame = numbered_model
    path = tmp_path / "t.parquet"
    frame.assign(n=[[v] for v in frame["n"]]).to_parquet(path)
    with pytest.raises(ValueError, match="'n' holds list") as info:
        _read_to_predict(path, model)
    text = str(info.value)
    assert "flatten it" in text
    assert not any(advice in text for advice in _FIT_ADVICE), text
    with pytest.raises(ValueError, match="--drop n"):
        read_table(path)


def test_percentages_are_named_and_kept_as_categories(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(
        "pct,class\n" + "".join(f"{k % 30}%,{'AB'[k % 2]}\n" for k in range(60))
    )
    with pytest.warns(DataReadWarning, match=r"t.csv: column 'pct' holds percent") as w:
        got = read_table(path)
    assert [m.message.problem for m in w] == ["percent"]
    assert got["pct"].cat.categories.tolist()[:3] == ["0%", "1%", "10%"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_table(path, discrete=["pct"])


def test_a_column_empty_in_the_first_block_is_read_by_the_cells_that_follow(
    tmp_path,
):
    # Arrow types a CSV column without a value in its first block as null,
    # then refused the first value further down ("looked like numbers in the
    # first rows but holds 'u' further down"), where the whole file reads it.
    n = 60_000
    words = np.full(n, None, dtype=object)
    words[-50:] = ["u", "v"] * 25
    numbers = np.full(n, np.nan)
    numbers[-50:] = np.arange(50) / 8
    # A CSV is read in blocks of at least 1 MiB: 25 bytes a row.
    frame = pd.DataFrame(
        {"a": ["x" * 20, "y" * 20] * (n // 2), "w": words, "z": numbers}
    )
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    whole = read_table(path)
    batches = list(open_table(path, batch_rows=1000))
    assert len(batches) > 1
    assert batches[-1]["z"].dtype == whole["z"].dtype == np.float64
    np.testing.assert_array_equal(
        np.concatenate([b["z"].to_numpy(dtype=float) for b in batches]),
        whole["z"].to_numpy(),
    )
    assert pd.concat([b["w"].astype(object) for b in batches]).tolist() == (
        whole["w"].astype(object).tolist()
    )
