from __future__ import annotations

import contextlib
import io
import json
import math
import os
import pickle
import warnings
import zipfile
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pytest

import augnb
from augnb import TAN, NaiveBayes
from augnb._model_io import (
    ALLOWED_CLASSES,
    FORMAT_NAME,
    FORMAT_VERSION,
    load_model,
    read_features,
    read_model,
    save_model,
)
from augnb.classifiers.registry import estimators
from augnb.cli import main
from augnb.data.tables import DataReadWarning
from augnb.datasets import load

# Beyond each estimator's defaults: other density families, a second order
# AnDE, BSEJ's DAG supernode CPTs, the HDP estimator of the CPTs, every
# discretiser (MDL is the default), ESKDB's shared discretisation, weighted
# rows and a model fitted in chunks (the loader refuses a NaN or infinity in
# an array where none of these holds one: each must still load).
_VARIANTS = {
    "NaiveBayes-gaussian": lambda: NaiveBayes(continuous="gaussian"),
    "NaiveBayes-gmm": lambda: NaiveBayes(continuous="gmm"),
    "ETAN-gmm": lambda: augnb.ETAN(continuous="gmm"),
    "AnDE-2": lambda: augnb.AnDE(n=2),
    "BSEJ-dag": lambda: augnb.BSEJ(supernode_cpt="dag"),
    "TAN-hdp": lambda: TAN(smoothing="hdp", hdp_iterations=20),
    "TAN-equal_frequency": lambda: TAN(discretizer="equal_frequency"),
    "TAN-equal_width": lambda: TAN(discretizer="equal_width"),
    "NaiveBayes-mean": lambda: NaiveBayes(discretizer="mean"),
    "KDB-soac": lambda: augnb.KDB(discretizer="soac"),
    "ESKDB-shared": lambda: augnb.ESKDB(
        n_estimators=4, hdp_iterations=50, discretization="shared"
    ),
    "AODE-weighted": lambda: augnb.AODE(),
    "TAN-partial": lambda: TAN(),
    "AWNB-unnormalised": lambda: augnb.AWNB(normalize=False, random_state=0),
    "WANBIA-unnormalised": lambda: augnb.WANBIA(normalize=False),
}


@pytest.fixture(scope="module")
def mixed_data():
    # Continuous and discrete columns, with missing values in both kinds.
    X, y = load("credit_approval")
    return X.iloc[:200], y.iloc[:200]


#: Fewer ensemble members and HDP sweeps for ESKDB than its defaults (20
#: members of 1000 sweeps each), as in test_common.py's estimator checks: the
#: archive holds the same attributes, whatever their number and the sweeps.
_CHEAPER = {"ESKDB": {"n_estimators": 4, "hdp_iterations": 50}}


def _make(name):
    if name in _VARIANTS:
        return _VARIANTS[name]()
    return estimators()[name](**_CHEAPER.get(name, {}))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", [*estimators(), *_VARIANTS])
def test_every_estimator_round_trips_exactly(name, mixed_data, tmp_path):
    X, y = mixed_data
    model = _make(name)
    if name.endswith("-weighted"):
        weights = np.random.default_rng(0).choice([0.0, 0.5, 2.0], len(y))
        model.fit(X, y, sample_weight=weights)
    elif name.endswith("-partial"):
        model.partial_fit(X.iloc[:100], y.iloc[:100], classes=sorted(set(y)))
        model.partial_fit(X.iloc[100:], y.iloc[100:])
    else:
        model.fit(X, y)
    path = save_model(model, tmp_path / "m.augnb", dataset="credit_approval")
    assert zipfile.is_zipfile(path)
    again = load_model(path)
    assert type(again) is type(model)
    assert again.get_params() == model.get_params()
    assert np.array_equal(again.predict_proba(X), model.predict_proba(X))
    assert np.array_equal(again.classes_, model.classes_)
    assert again.classes_.dtype == model.classes_.dtype
    # Objects shared between attributes stay shared.
    if getattr(model, "model_", None) is not None and hasattr(
        model.model_, "structure"
    ):
        assert (again.model_.structure is again.structure_) == (
            model.model_.structure is model.structure_
        )


def test_save_and_read_model_with_provenance(tmp_path):
    X, y = load("car")
    model = TAN().fit(X, y)
    path = save_model(model, tmp_path / "sub" / "tan.augnb", dataset="car", n=3)
    estimator, info = read_model(path)
    assert info["dataset"] == "car" and info["n"] == 3
    assert info["augnb"] == augnb.__version__
    np.testing.assert_array_equal(estimator.predict_proba(X), model.predict_proba(X))
    assert not list(path.parent.glob(".*.tmp"))
    with zipfile.ZipFile(path) as archive:
        document = json.loads(archive.read("model.json"))
        names = archive.namelist()
    assert document["format"] == FORMAT_NAME and document["version"] == FORMAT_VERSION
    assert document["estimator"] == "TAN"
    assert all(n == "model.json" or n.endswith(".npy") for n in names)


def test_wide_kdb_loads_and_predicts_a_row_missing_everything(tmp_path):
    # Loading checks the model by predicting a row missing every value. For a
    # kDB(k=2) of 30 columns of 4 values, that row once summed out the joint
    # values of every node with a child (4 ** 28 cells): the model saved
    # but could not be loaded (MemoryError), nor could such a row be
    # predicted. A node without an observed descendant now costs nothing.
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    X = pd.DataFrame(
        {f"c{j}": (y + rng.integers(0, 3, 300) + j) % 4 for j in range(30)}
    )
    model = augnb.KDB(k=2).fit(X, y)
    again = load_model(save_model(model, tmp_path / "kdb.augnb"))
    rows = X.iloc[:2].astype(float)
    rows.iloc[0] = np.nan
    rows.iloc[1, :20] = np.nan
    proba = again.predict_proba(rows)
    np.testing.assert_allclose(proba, model.predict_proba(rows), rtol=0, atol=0)
    np.testing.assert_allclose(
        proba[0], np.exp(model.model_.class_log_prior), rtol=0, atol=1e-12
    )


def test_a_sparse_table_round_trips(tmp_path):
    # Parents of 100 x 100 values: the table keeps rows for the observed
    # configurations only (plus one for the unseen ones, with no count).
    # The loader expected a count row for that one too, and refused every
    # such model ("model_.cpds[1].counts is not float64 of shape ...").
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"c{j}": rng.integers(0, 100, 500) for j in range(3)})
    model = augnb.KDB(k=2, discrete_features=[0, 1, 2]).fit(X, rng.integers(0, 2, 500))
    assert any(cpd.config_keys is not None for cpd in model.model_.cpds)
    again = load_model(save_model(model, tmp_path / "sparse.augnb"))
    assert np.array_equal(again.predict_proba(X), model.predict_proba(X))


def test_partial_fit_resumes_after_loading(tmp_path):
    X, y = load("car")
    first, second = slice(0, 800), slice(800, None)
    classes = sorted(y.unique())
    straight = NaiveBayes().partial_fit(X.iloc[first], y.iloc[first], classes=classes)
    straight.partial_fit(X.iloc[second], y.iloc[second])
    half = NaiveBayes().partial_fit(X.iloc[first], y.iloc[first], classes=classes)
    resumed = load_model(save_model(half, tmp_path / "half.augnb"))
    assert resumed.statistics_.n_samples == 800
    resumed.partial_fit(X.iloc[second], y.iloc[second])
    assert np.array_equal(resumed.predict_proba(X), straight.predict_proba(X))


def test_random_state_instance_round_trips(tmp_path):
    X, y = load("car")
    model = TAN(random_state=np.random.RandomState(3)).fit(X, y)
    again = load_model(save_model(model, tmp_path / "m.augnb"))
    assert again.random_state.randint(1000) == model.random_state.randint(1000)


def test_save_refuses_what_the_format_cannot_hold(tmp_path):
    X, y = load("car")
    model = TAN().fit(X, y)
    model.extra_ = [1, object()]
    with pytest.raises(ValueError, match=r"cannot save TAN: extra_\[1\] is a builtins"):
        save_model(model, tmp_path / "m.augnb")
    del model.extra_
    with pytest.raises(ValueError, match="provenance"):
        save_model(model, tmp_path / "m.augnb", when=object())
    from sklearn.naive_bayes import GaussianNB

    with pytest.raises(ValueError, match="saves augnb classifiers; got a Gauss"):
        save_model(GaussianNB(), tmp_path / "m.augnb")
    # An unfitted model has nothing to predict with: load_model would refuse
    # the file, so none is written.
    with pytest.raises(ValueError, match="cannot save TAN: it is not fitted"):
        save_model(TAN(), tmp_path / "m.augnb")
    assert not (tmp_path / "m.augnb").exists()
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("where", ["feature", "class"])
def test_save_refuses_text_utf8_cannot_write(tmp_path, where):
    # Text decoded with errors="surrogateescape" holds lone surrogates: the
    # model was saved, and then every load failed ("it cannot predict").
    odd = pd.Series(["x\udc80", "y"] * 10, dtype=object)
    X = pd.DataFrame({"a": odd if where == "feature" else ["x", "y"] * 10})
    y = np.array(["p", "q"] * 10, dtype=object)
    if where == "class":
        y = odd.to_numpy()
    model = NaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match=r"'\\udc80' \(a lone surrogate\) no UTF-8"):
        save_model(model, tmp_path / "m.augnb")
    assert not list(tmp_path.iterdir())
    # Other non-ASCII text is saved and read back.
    labels = np.where(y == "x\udc80", "é", y)
    fine = NaiveBayes().fit(X.replace("x\udc80", "xé"), labels)
    save_model(fine, tmp_path / "m.augnb")
    back = load_model(tmp_path / "m.augnb")
    np.testing.assert_array_equal(back.classes_, fine.classes_)


def test_a_pipeline_is_refused_with_how_to_save_its_classifier(tmp_path):
    # The refusal named the Pipeline only; its classifier saves and loads
    # alone, and predicts the pipeline's probabilities from the steps before.
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OrdinalEncoder

    X, y = load("car")
    X, y = X.iloc[::10], y.iloc[::10]
    pipe = make_pipeline(OrdinalEncoder(), TAN()).fit(X, y)
    with pytest.raises(ValueError, match=r"not a Pipeline: .*pipeline\[-1\].*'tan'"):
        save_model(pipe, tmp_path / "m.augnb")
    assert not list(tmp_path.iterdir())
    again = load_model(save_model(pipe[-1], tmp_path / "m.augnb"))
    np.testing.assert_array_equal(
        again.predict_proba(pipe[:-1].transform(X)), pipe.predict_proba(X)
    )


def test_a_search_is_refused_with_how_to_save_its_classifier(tmp_path):
    # "save it with joblib.dump" only: the refitted best classifier saves alone.
    from sklearn.model_selection import GridSearchCV

    X, y = load("car")
    search = GridSearchCV(TAN(), {"alpha": [0.5, 1.0]}, cv=2).fit(X, y)
    fix = r"save_model\(search\.best_estimator_, path\)"
    with pytest.raises(ValueError, match=fix):
        save_model(search, tmp_path / "m.augnb")
    assert not list(tmp_path.iterdir())


def test_interval_categories_round_trip(tmp_path):
    # pd.cut gives a column of intervals: a model of it is saved as any other.
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "band": pd.cut(rng.normal(size=80), 4),
            "level": pd.cut(rng.integers(0, 9, 80), [0, 3, 9], right=False),
        }
    )
    y = np.where(rng.random(80) > 0.5, "p", "n")
    model = TAN().fit(X, y)
    path = save_model(model, tmp_path / "m.augnb")
    again = load_model(path)
    assert again.schema_ == model.schema_
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    document = _edit_document(
        members,
        lambda d: _first(
            d, lambda n: isinstance(n, dict) and n.get("t") == "interval"
        ).update(closed="sideways"),
    )
    bad = _write_archive(tmp_path / "bad.augnb", document)
    with pytest.raises(ValueError, match="interval"):
        load_model(bad)


def test_allow_list_is_explicit():
    assert ALLOWED_CLASSES["TAN"] is TAN
    assert "Popen" not in ALLOWED_CLASSES and "BaseEstimator" not in ALLOWED_CLASSES
    for name, cls in ALLOWED_CLASSES.items():
        assert cls.__name__ == name and cls.__module__.startswith("augnb.")


def test_load_rejects_foreign_and_missing_files(tmp_path):
    other = tmp_path / "x.augnb"
    other.write_bytes(b"not a model")
    with pytest.raises(ValueError, match=r"text file .*not a model") as refused:
        load_model(other)
    # Python's call has no argument order: no command line's usage.
    assert "augnb predict" not in str(refused.value)
    assert "augnb.save_model" in str(refused.value)
    other.write_bytes(b"\x00\x01\x02 binary")
    with pytest.raises(ValueError, match="not an augnb model file"):
        load_model(other)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_model(tmp_path / "nothing.augnb")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_load_names_a_file_that_is_no_regular_file(tmp_path, capsys):
    # A named pipe exists: not "does not exist", and never opened (a read
    # would wait for a writer).
    pipe = tmp_path / "pipe.augnb"
    os.mkfifo(pipe)
    with pytest.raises(FileNotFoundError, match=r"pipe\.augnb' is not a regular file"):
        load_model(pipe)
    assert main(["predict", str(pipe), "rows.csv"]) == 2
    assert "is not a regular file" in capsys.readouterr().err


@pytest.fixture(scope="module")
def saved_archive(tmp_path_factory):
    X, y = load("car")
    path = tmp_path_factory.mktemp("model") / "tan.augnb"
    save_model(TAN().fit(X, y), path)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _write_archive(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _assert_refused_naming(path: Path, message: str) -> None:
    """Loading ``path`` is refused in one line naming the file and ``message``."""
    with pytest.raises(ValueError, match="not a readable augnb model") as info:
        load_model(path)
    text = str(info.value)
    assert message in text and str(path) in text and "\n" not in text


def _edit_document(members, edit):
    document = json.loads(members["model.json"])
    edit(document)
    return {**members, "model.json": json.dumps(document).encode()}


def _first(node, predicate):
    """The first JSON node (depth first) for which ``predicate`` holds."""
    if predicate(node):
        return node
    children = node.values() if isinstance(node, dict) else node
    if isinstance(node, (dict, list)):
        for child in children:
            found = _first(child, predicate)
            if found is not None:
                return found
    return None


def _set_class(document, name):
    document["model"]["v"]["structure_"]["class"] = name


def _declare_shape(document):
    node = _first(document, lambda n: isinstance(n, dict) and n.get("t") == "array")
    node["shape"] = [*node["shape"], 1]


def _dunder(document):
    document["model"]["v"]["structure_"]["v"]["__class__"] = 1


def _bad_param(document):
    document["model"]["params"]["alpha"] = "a lot"


def _unknown_param(document):
    document["model"]["params"]["shell"] = "rm -rf"


def _huge_shape(document):
    node = _first(document, lambda n: isinstance(n, dict) and n.get("t") == "array")
    node["shape"] = [10**12]


def _wrong_type(document):
    document["model"]["v"] = ["not", "a", "dict"]


def _scalar(dtype, value):
    def edit(document):
        document["model"]["v"]["n_features_in_"] = {
            "t": "scalar",
            "dtype": dtype,
            "v": value,
        }

    return edit


def _empty_huge_objects(document):
    # No items, so the size agrees; but no array has such a dimension.
    node = {"t": "objects", "id": 10**6, "shape": [0, 10**30], "v": []}
    document["model"]["v"]["extra_"] = node


def _unbacked_column_count(document):
    # Nothing names the columns: the probe rows would have a million cells.
    model = document["model"]["v"]
    del model["feature_names_in_"]
    model["schema_"] = None
    model["n_features_in_"] = 10**6


def _names(value):
    return lambda document: document["model"]["v"].update(feature_names_in_=value)


def _no_schema_columns(document):
    document["model"]["v"]["schema_"]["v"]["columns"] = {"t": "tuple", "v": []}


def _short_random_state(document):
    state = {"t": "tuple", "v": ["MT19937", [1, 2], 0, 0, 0.0]}
    document["model"]["params"]["random_state"] = {"t": "random_state", "v": state}


def _repeated_class(document):
    classes = document["model"]["v"]["classes_"]
    classes["v"][1] = classes["v"][0]


_DAMAGE = {
    "format": (lambda d: d.update(format="pickle"), "its format is 'pickle'"),
    "newer": (lambda d: d.update(version=FORMAT_VERSION + 1), "newer augnb"),
    "version 0": (lambda d: d.update(version=0), "which no augnb writes"),
    "negative version": (lambda d: d.update(version=-1), "which no augnb writes"),
    "root class": (
        lambda d: d["model"].update({"class": "Popen"}),
        "not an augnb classifier",
    ),
    "class": (lambda d: _set_class(d, "system"), "class 'system' is not one"),
    "shape": (_declare_shape, "declared"),
    "attribute name": (_dunder, "bad attribute name '__class__'"),
    "parameter value": (_bad_param, "bad parameters of TAN"),
    "parameter name": (_unknown_param, "bad parameters of TAN"),
    "types": (_wrong_type, "TAN has no attributes"),
    "huge shape": (_huge_shape, "smaller than its declared shape"),
    # Values numpy refuses to build: said as damage, not numpy's bare words.
    "scalar out of range": (_scalar("|i1", 1000), "OverflowError"),
    "scalar of a word": (_scalar("<f8", "abc"), "could not convert"),
    "scalar of infinity": (_scalar("<i8", {"t": "float", "v": "inf"}), "infinity"),
    "empty huge shape": (_empty_huge_objects, "malformed document"),
    "random state": (_short_random_state, "bad random_state"),
    # Column names and number, which augnb predict and inspect read as they are.
    "column count": (_unbacked_column_count, "nothing names its 1000000 feature"),
    "column names": (_names(None), "its feature names are not 6 strings"),
    "few names": (_names({"t": "tuple", "v": ["a"]}), "not 6 strings"),
    "schema": (_no_schema_columns, "its schema describes 0 columns, not its 6"),
    # Two probability columns under one name: it loaded and predicted.
    "repeated class": (_repeated_class, "its classes are not distinct"),
}


@pytest.mark.parametrize("case", list(_DAMAGE))
def test_load_rejects_a_tampered_document(case, saved_archive, tmp_path):
    edit, message = _DAMAGE[case]
    path = _write_archive(tmp_path / "m.augnb", _edit_document(saved_archive, edit))
    _assert_refused_naming(path, message)


def _with_duplicate(members: dict[str, bytes], name: str, data: bytes) -> bytes:
    """The archive of ``members`` and a second member named ``name``."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile's "Duplicate name"
        with zipfile.ZipFile(buffer, "w") as archive:
            for member, content in members.items():
                archive.writestr(member, content)
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_member_named_twice_is_refused(saved_archive, tmp_path):
    # zipfile read the second array (another reader the first): it loaded
    # as whichever model its reader picked.
    path = tmp_path / "m.augnb"
    other = _table(saved_archive, lambda a: a[:, :, ::-1].copy())["arrays/2.npy"]
    path.write_bytes(_with_duplicate(saved_archive, "arrays/2.npy", other))
    with pytest.raises(ValueError, match=r"two members named 'arrays/2\.npy'") as info:
        load_model(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_load_rejects_a_damaged_archive(saved_archive, tmp_path):
    whole = _write_archive(tmp_path / "whole.augnb", saved_archive)
    cases = {
        "truncated": whole.read_bytes()[: whole.stat().st_size // 2],
        "bad json": {**saved_archive, "model.json": b"{not json"},
        "no document": {k: v for k, v in saved_archive.items() if k != "model.json"},
        "no array": {k: v for k, v in saved_archive.items() if k != "arrays/0.npy"},
        "bad array": {**saved_archive, "arrays/0.npy": b"\x93NUMPY garbage"},
        "bad deflate": _flip_deflate_byte(whole, "model.json", 5),
        "encrypted": _set_encrypted(whole),
    }
    for case, content in cases.items():
        path = tmp_path / f"{case}.augnb"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            _write_archive(path, content)
        with pytest.raises(ValueError, match="not a readable augnb model") as info:
            load_model(path)
        assert "\n" not in str(info.value), case
    assert "encrypted" in str(info.value)


def _flip_deflate_byte(path: Path, name: str, offset: int) -> bytes:
    """The archive with one byte of ``name``'s deflated data inverted.

    Inverted near its start, the byte breaks the deflate stream itself (an
    error of zlib's, before any CRC is computed).
    """
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + offset] ^= 0xFF
    return bytes(data)


def _set_encrypted(path: Path) -> bytes:
    """The archive with every member flagged encrypted (in its directory)."""
    data = bytearray(path.read_bytes())
    position = data.find(b"PK\x01\x02")
    while position >= 0:
        data[position + 8] |= 1
        position = data.find(b"PK\x01\x02", position + 4)
    return bytes(data)


def test_damaged_archives_exit_2_on_the_command_line(saved_archive, tmp_path, capsys):
    whole = _write_archive(tmp_path / "whole.augnb", saved_archive)
    for case, data in {
        "bad deflate": _flip_deflate_byte(whole, "model.json", 5),
        "encrypted": _set_encrypted(whole),
    }.items():
        path = tmp_path / f"{case}.augnb"
        path.write_bytes(data)
        for command in ("predict", "inspect"):
            capsys.readouterr()
            args = [command, str(path)] + (["rows.csv"] if command == "predict" else [])
            assert main(args) == 2, (case, command)
            err = capsys.readouterr().err
            assert "not a readable augnb model" in err and err.count("\n") == 1


def test_an_object_array_of_pickles_is_refused(saved_archive, tmp_path):
    # .npy members are read with allow_pickle=False: an object array is refused.
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    members = {**saved_archive, "arrays/0.npy": buffer.getvalue()}
    path = _write_archive(tmp_path / "m.augnb", members)
    with pytest.raises(ValueError, match=r"arrays/0\.npy"):
        load_model(path)


class _Trap:
    """Unpickling it creates a marker file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickle_runs_nothing_without_allow_pickle(tmp_path):
    marker = tmp_path / "marker"
    trap = tmp_path / "trap.augnb"
    trap.write_bytes(pickle.dumps(_Trap(marker), protocol=4))
    with pytest.raises(ValueError, match=r"is a pickle.*allow_pickle=True") as info:
        load_model(trap)
    assert "\n" not in str(info.value)
    assert main(["predict", str(trap), str(trap)]) == 2
    assert not marker.exists()
    # Allowed, it runs (which is why it must be asked for), then is refused.
    with pytest.warns(UserWarning, match="save_model"):
        with pytest.raises(ValueError, match="not a readable augnb model"):
            load_model(trap, allow_pickle=True)
    assert marker.exists()


def test_an_old_joblib_model_loads_with_allow_pickle(tmp_path):
    X, y = load("car")
    model = TAN().fit(X, y)
    old = tmp_path / "old.joblib"
    record = {"format": "augnb-model-1", "augnb": "0.1", "estimator": model}
    joblib.dump({**record, "target": "class"}, old)
    with pytest.raises(ValueError, match="allow_pickle"):
        load_model(old)
    with pytest.warns(UserWarning, match=r"save_model\(load_model"):
        estimator, info = read_model(old, allow_pickle=True)
    assert info["target"] == "class"
    converted = save_model(estimator, tmp_path / "new.augnb")
    np.testing.assert_array_equal(
        load_model(converted).predict_proba(X), model.predict_proba(X)
    )
    compressed = tmp_path / "old.gz.joblib"
    joblib.dump(model, compressed, compress=3)
    with pytest.raises(ValueError, match="is a pickle"):
        load_model(compressed)
    with pytest.warns(UserWarning) as caught:
        assert type(load_model(compressed, allow_pickle=True)) is TAN
    # Through load_model as through read_model: the warning names this line.
    assert {w.filename for w in caught} == {__file__}


def test_read_features_types_columns_like_the_model(tmp_path):
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    frame = X.iloc[:10].copy()
    frame["class"] = y.iloc[:10]
    path = tmp_path / "rows.csv"
    frame.iloc[:, ::-1].to_csv(path, index=False)  # column order does not matter
    Xr, yr = read_features(path, model)
    assert list(Xr.columns) == list(X.columns)
    assert yr.tolist() == y.iloc[:10].tolist()
    for c in model.continuous_columns_:
        assert Xr[c].dtype.kind == "f"
    np.testing.assert_allclose(
        model.predict_proba(Xr), model.predict_proba(X.iloc[:10])
    )


def test_read_features_errors_name_the_column(tmp_path):
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    path = tmp_path / "rows.csv"
    X.iloc[:3].drop(columns="A2").to_csv(path, index=False)
    # The message lists the table's columns, not only those the model reads.
    other = X.iloc[:3, :3].drop(columns="A2").assign(note="x")
    other.to_csv(path, index=False)
    for table in (path, other):
        with pytest.raises(ValueError, match=r"lacks the model's column\(s\) \['A2'"):
            read_features(table, model)
        with pytest.raises(ValueError, match=r"it has \['A1', 'A3', 'note'\]"):
            read_features(table, model)
    bad = X.iloc[:3].copy().astype(object)
    bad["A2"] = ["1.0", "abc", "2"]
    # A DataFrame's cells are taken as they are: a word where the model reads
    # numbers is an error naming the column and the word.
    with pytest.raises(ValueError, match=r"'A2'.*'abc'"):
        read_features(bad, model)
    # A file is read as the model reads its columns, whatever share of a
    # column's cells are words: the word is named and read as missing.
    bad.to_csv(path, index=False)
    with pytest.warns(DataReadWarning, match=r"'A2'.*'abc'.*read as missing"):
        got, _ = read_features(path, model)
    assert got["A2"].tolist()[0] == 1.0 and np.isnan(got["A2"].tolist()[1])


def test_read_features_reads_only_the_models_columns(tmp_path, recwarn):
    # A column the model does not use is not read: its cells (numbers with
    # words in a third of them, which the reader would warn about) cost
    # nothing and say nothing.
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    rows = X.head(60).assign(notes=["1.5", "x", "2.25"] * 20, **{"class": y.head(60)})
    path = tmp_path / "rows.csv"
    rows.to_csv(path, index=False)
    got, labels = read_features(path, model)
    assert not [w for w in recwarn if issubclass(w.category, DataReadWarning)]
    assert list(got.columns) == list(X.columns)
    assert labels.tolist() == y.head(60).tolist()
    np.testing.assert_array_equal(
        model.predict_proba(got), model.predict_proba(X.head(60))
    )
    with pytest.raises(ValueError, match=r"no id column 'nope'; the columns are \["):
        read_features(path, model, id_column="nope")


def test_cli_fit_then_predict(tmp_path, capsys):
    model_path = tmp_path / "car.augnb"
    dot = tmp_path / "car.dot"
    code = main(
        [
            "fit",
            "car",
            "--estimator",
            "NB",
            "--param",
            "alpha=0.5",
            "--output",
            str(model_path),
            "--dot",
            str(dot),
        ]
    )
    assert code == 0 and zipfile.is_zipfile(model_path)
    assert dot.read_text().startswith("digraph augnb")
    assert load_model(model_path).alpha == 0.5
    X, y = load("car")
    rows = X.iloc[:6].astype(object)
    rows.loc[rows.index[0], "safety"] = "unheard-of"  # unseen category
    rows.loc[rows.index[1], "doors"] = np.nan  # missing value
    rows["class"] = y.iloc[:6]
    data = tmp_path / "rows.csv"
    rows.to_csv(data, index=False)
    out = tmp_path / "pred.csv"
    capsys.readouterr()
    assert main(["predict", str(model_path), str(data), "--output", str(out)]) == 0
    pred = pd.read_csv(out)
    assert list(pred.columns) == ["prediction"] + [
        f"p({c})" for c in sorted(y.unique())
    ]
    np.testing.assert_allclose(pred.iloc[:, 1:].sum(axis=1), 1.0)
    assert "accuracy on the 6 labelled rows" in capsys.readouterr().err


def test_cli_old_name_writes_the_safe_format(tmp_path, capsys):
    # An old-style .joblib name still works; the file is the data-only format.
    model_path = tmp_path / "car.joblib"
    assert main(["fit", "car", "--estimator", "NB", "--output", str(model_path)]) == 0
    assert zipfile.is_zipfile(model_path)
    X, _ = load("car")
    old = tmp_path / "old.joblib"
    joblib.dump({"format": "augnb-model-1", "estimator": load_model(model_path)}, old)
    data = tmp_path / "rows.csv"
    X.iloc[:4].to_csv(data, index=False)
    capsys.readouterr()
    assert main(["predict", str(old), str(data)]) == 2
    err = capsys.readouterr().err
    assert "--allow-pickle to augnb predict" in err and err.count("\n") == 1
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert main(["predict", str(old), str(data), "--allow-pickle"]) == 0
    captured = capsys.readouterr()
    assert "save_model" in captured.err
    assert captured.out.startswith("prediction,")


def _no_structure(document):
    del document["model"]["v"]["structure_"]


def _structure_own_parents(document):
    # The structure's parents are the structure itself: prediction reads
    # the model's tables, not these; the printed structure reads them.
    node = document["model"]["v"]["structure_"]
    node["v"]["parents"] = {"t": "ref", "id": node["id"]}


@pytest.mark.parametrize("edit", [_no_structure, _structure_own_parents])
def test_cli_inspect_refuses_a_model_it_cannot_describe(
    edit, saved_archive, tmp_path, capsys
):
    path = _write_archive(tmp_path / "m.augnb", _edit_document(saved_archive, edit))
    capsys.readouterr()
    assert main(["inspect", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing half printed
    assert "cannot describe it" in captured.err and str(path) in captured.err
    assert captured.err.count("\n") == 1


def test_cli_fit_and_predict_usage_errors(tmp_path, capsys):
    assert (
        main(["fit", "car", "--param", "alpha", "--output", str(tmp_path / "m")]) == 2
    )
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["fit", "nosuch", "--output", str(tmp_path / "m")]) == 2
    assert main(["predict", str(tmp_path / "none.augnb"), "x.csv"]) == 2
    assert "does not exist" in capsys.readouterr().err


# -- decompression bombs --------------------------------------------------------
# A small file must not make loading allocate what its members claim to hold:
# each case is refused from the archive's directory or the .npy header, before
# the memory is taken (tracemalloc sees every Python and NumPy allocation).


def _declare_size(path: Path, name: str, size: int) -> None:
    """Rewrite the uncompressed size the central directory declares for ``name``."""
    data = bytearray(path.read_bytes())
    position = 0
    while True:
        position = data.index(b"PK\x01\x02", position)
        length = int.from_bytes(data[position + 28 : position + 30], "little")
        if data[position + 46 : position + 46 + length] == name.encode():
            data[position + 24 : position + 28] = size.to_bytes(4, "little")
            break
        position += 4
    path.write_bytes(bytes(data))


def _load_peak(path: Path, **kwargs) -> tuple[str, int]:
    """The refusal's message and the most memory loading held meanwhile."""
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as info:
            load_model(path, **kwargs)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    text = str(info.value)
    assert str(path) in text and "\n" not in text
    return text, peak


_MIB = 1 << 20


def _compressed(members, path, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_member_longer_than_declared_is_never_read_whole(saved_archive, tmp_path):
    # 64 MiB of zeros behind the document, the directory declaring only the
    # document's own bytes: reading stops at the declared size.
    document = saved_archive["model.json"]
    path = _compressed(
        {**saved_archive, "model.json": document + b" " * (64 * _MIB)},
        tmp_path / "lying.augnb",
    )
    _declare_size(path, "model.json", len(document))
    text, peak = _load_peak(path)
    assert "damaged" in text and peak < 8 * _MIB


def test_an_npy_header_claiming_a_huge_shape_is_refused_unallocated(
    saved_archive, tmp_path
):
    document = json.loads(saved_archive["model.json"])
    node = _first(document, lambda n: isinstance(n, dict) and n.get("t") == "array")
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": node["dtype"], "fortran_order": False, "shape": (10**11,)}
    )
    size = math.prod(node["shape"]) * np.dtype(node["dtype"]).itemsize
    members = {
        **saved_archive,
        node["member"]: header.getvalue() + b"\0" * size,
        "model.json": json.dumps(document).encode(),
    }
    text, peak = _load_peak(_compressed(members, tmp_path / "header.augnb"))
    assert node["member"] in text and "(100000000000,)" in text
    assert peak < 8 * _MIB


def test_the_size_limit_refuses_a_bomb_before_reading(saved_archive, tmp_path):
    # The directory declares a document of almost 4 GiB: parsed, it would take
    # ten times that; refused by the default limit from the directory alone.
    path = _compressed(saved_archive, tmp_path / "bomb.augnb")
    _declare_size(path, "model.json", 0xFFFF_FFF0)
    text, peak = _load_peak(path)
    assert "more than the limit of 4 GiB" in text and "max_bytes" in text
    assert "AUGNB_MAX_MODEL_BYTES" in text and peak < 8 * _MIB


def test_the_size_limit_can_be_raised_for_a_model_one_trusts(
    saved_archive, tmp_path, monkeypatch, capsys
):
    path = _compressed(saved_archive, tmp_path / "tan.augnb")
    text, _ = _load_peak(path, max_bytes=10_000)
    assert "more than the limit of 9.77 KiB" in text
    assert load_model(path, max_bytes=1 << 20).n_features_in_ == 6
    with pytest.raises(ValueError, match="max_bytes must be a positive"):
        load_model(path, max_bytes=0)
    # The environment variable sets the default, for augnb predict as well.
    X, _ = load("car")
    data = tmp_path / "rows.csv"
    X.iloc[:3].to_csv(data, index=False)
    monkeypatch.setenv("AUGNB_MAX_MODEL_BYTES", "10K")
    capsys.readouterr()
    assert main(["predict", str(path), str(data)]) == 2
    err = capsys.readouterr().err
    assert "more than the limit of 10 KiB" in err and err.count("\n") == 1
    monkeypatch.setenv("AUGNB_MAX_MODEL_BYTES", "1M")
    assert main(["predict", str(path), str(data)]) == 0
    monkeypatch.setenv("AUGNB_MAX_MODEL_BYTES", "lots")
    with pytest.raises(ValueError, match=r"AUGNB_MAX_MODEL_BYTES='lots' is not a"):
        load_model(path)


def test_an_array_is_read_in_its_own_memory(saved_archive, tmp_path):
    # A large array the limit allows (64 MiB of zeros, deflated to a few
    # hundred KiB) takes its own bytes once read, not copies of them: the
    # limit counts each array's bytes once.
    document = json.loads(saved_archive["model.json"])
    shape = [8 * _MIB]
    member = f"arrays/{len(saved_archive) - 1}.npy"
    document["model"]["v"]["extra_"] = {
        "t": "array",
        "id": 10**6,
        "member": member,
        "dtype": "<f8",
        "shape": shape,
    }
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.zeros(shape))
    members = {
        **saved_archive,
        member: buffer.getvalue(),
        "model.json": json.dumps(document).encode(),
    }
    path = _compressed(members, tmp_path / "large.augnb")
    import tracemalloc

    tracemalloc.start()
    try:
        model = load_model(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert model.extra_.shape == (8 * _MIB,) and not model.extra_.any()
    assert peak < 80 * _MIB


def test_more_members_than_the_document_names_are_refused(saved_archive, tmp_path):
    extra = {f"arrays/{k}.npy": b"" for k in range(len(saved_archive), 5000)}
    path = _compressed({**saved_archive, **extra}, tmp_path / "many.augnb")
    text, _ = _load_peak(path)
    assert "5000 members" in text


def test_a_member_compressed_another_way_is_refused(saved_archive, tmp_path):
    # zipfile decompresses bzip2 and LZMA members without bounding the output
    # of one read; augnb writes deflate only.
    path = _compressed(saved_archive, tmp_path / "bz2.augnb", zipfile.ZIP_BZIP2)
    text, _ = _load_peak(path)
    assert "compressed with bzip2" in text


def test_one_array_member_named_by_two_nodes_is_refused(saved_archive, tmp_path):
    # Otherwise one member could be read again for every node naming it.
    document = json.loads(saved_archive["model.json"])
    node = _first(document, lambda n: isinstance(n, dict) and n.get("t") == "array")
    document["model"]["v"]["copy_"] = {**node, "id": 10**6}
    members = {**saved_archive, "model.json": json.dumps(document).encode()}
    text, _ = _load_peak(_compressed(members, tmp_path / "twice.augnb"))
    assert f"{node['member']} is named twice" in text


def test_read_features_reads_a_continuous_column_of_words_as_missing(tmp_path):
    # Every cell of the model's continuous column is a word ("n/a": not
    # measured in these rows): missing, named in the warning, as one word of
    # five is; it used to be an error, unlike the same cells in a larger file.
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    rows = X.head(5).astype({"A2": object}).assign(A2="n/a")
    path = tmp_path / "rows.csv"
    rows.to_csv(path, index=False)
    with pytest.warns(DataReadWarning, match=r"'A2'.*'n/a'.*read as missing"):
        got, _ = read_features(path, model)
    assert got["A2"].isna().all()
    np.testing.assert_allclose(
        model.predict_proba(got),
        model.predict_proba(X.head(5).assign(A2=np.nan)),
    )


def test_read_features_reads_a_feature_named_like_the_default_class(tmp_path):
    # A model fitted with another class column may have a feature named
    # "class": it is read as that feature, not taken away as the labels.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "class": rng.choice(["first", "second"], 40),
            "b": rng.normal(size=40),
            "label": rng.choice(["p", "q"], 40),
        }
    )
    model = NaiveBayes().fit(frame[["class", "b"]], frame["label"])
    path = tmp_path / "rows.csv"
    frame.to_csv(path, index=False)
    X, y = read_features(path, model)
    assert list(X.columns) == ["class", "b"] and y is None
    np.testing.assert_array_equal(
        model.predict_proba(X), model.predict_proba(frame[["class", "b"]])
    )
    X, y = read_features(path, model, target="label")
    assert list(X.columns) == ["class", "b"] and y.tolist() == frame["label"].tolist()


def test_read_features_reads_booleans_written_as_text(tmp_path):
    # A CSV's true/false column is booleans; the same column written as text
    # (a Parquet file of strings) is read as those booleans too, where every
    # value used to become missing, without a word.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "t": rng.choice(["true", "false"], 60),
            "b": rng.normal(size=60),
            "class": rng.choice(["p", "q"], 60),
        }
    )
    frame["class"] = np.where(frame["t"] == "true", "p", frame["class"])
    frame.to_csv(tmp_path / "fit.csv", index=False)
    model = augnb.fit_files(NaiveBayes(), tmp_path / "fit.csv", target="class")
    assert model.schema_.columns[0].categories == (False, True)
    expected = model.predict_proba(read_features(tmp_path / "fit.csv", model)[0])
    frame.assign(t=frame["t"].str.capitalize()).to_parquet(tmp_path / "t.parquet")
    X, _ = read_features(tmp_path / "t.parquet", model)
    assert X["t"].tolist()[:3] == [t == "true" for t in frame["t"][:3]]
    np.testing.assert_array_equal(model.predict_proba(X), expected)


def test_read_features_names_text_where_the_model_fitted_numbers(tmp_path):
    # A typed file's text column where the model fitted numbered categories:
    # numbers are read as them; words that are no number are unseen values,
    # named when none of the column's values is known, not made missing.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"n": rng.integers(0, 3, 60), "class": rng.choice(["p", "q"], 60)}
    )
    model = NaiveBayes().fit(frame[["n"]], frame["class"])
    words = frame.assign(n=frame["n"].map({0: "zero", 1: "one", 2: "two"}))
    words.to_parquet(tmp_path / "w.parquet")
    X, _ = read_features(tmp_path / "w.parquet", model)
    with pytest.warns(UserWarning, match=r"'n': none of its values were seen"):
        got = model.predict_proba(X)
    np.testing.assert_allclose(
        got, model.predict_proba(frame[["n"]].assign(n=np.nan))
    )
    frame.astype({"n": str}).to_parquet(tmp_path / "n.parquet")
    with warnings.catch_warnings():
        # Text of the model's numbers: read as them, and nothing to say (the
        # model, not the file, says the column's kind).
        warnings.simplefilter("error")
        X, _ = read_features(tmp_path / "n.parquet", model)
    np.testing.assert_array_equal(
        model.predict_proba(X), model.predict_proba(frame[["n"]])
    )


def _plant(members, attribute, value):
    """The archive with ``value`` in the last cell of ``attribute``'s first array.

    Returns the archive's members and the name of the array's member.
    """
    document = json.loads(members["model.json"])
    node = _first(
        document,
        lambda n: isinstance(n, dict)
        and isinstance(n.get("v"), dict)
        and isinstance(n["v"].get(attribute), dict)
        and n["v"][attribute].get("t") == "array",
    )
    member = node["v"][attribute]["member"]
    arr = np.load(io.BytesIO(members[member])).copy()
    arr.flat[-1] = value
    buffer = io.BytesIO()
    np.save(buffer, arr)
    return {**members, member: buffer.getvalue()}, member


@pytest.fixture(scope="module")
def mixed_archives(mixed_data, tmp_path_factory):
    """The archives of two models of mixed data, by their estimator's name."""
    folder = tmp_path_factory.mktemp("mixed")
    out = {}
    for model in (NaiveBayes(), augnb.ETAN()):
        name = type(model).__name__
        path = save_model(model.fit(*mixed_data), folder / f"{name}.augnb")
        with zipfile.ZipFile(path) as archive:
            out[name] = {n: archive.read(n) for n in archive.namelist()}
    return out


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize(
    "estimator, attribute",
    [
        ("NaiveBayes", "CategoricalCPD.log_prob"),
        ("ETAN", "ConditionalGaussianCPD.intercept"),
        ("NaiveBayes", "CategoricalCPD.counts"),
    ],
)
def test_a_non_finite_value_in_a_cell_no_probe_reads_is_refused(
    value, estimator, attribute, mixed_archives, tmp_path
):
    # The probe rows read one value of each column: a NaN planted in the
    # last cell of a probability table (of the last class and value) or of a
    # Gaussian's means (of the last configuration of its parents) loaded,
    # then made the probabilities of the rows reading it NaN; in the counts
    # (read by partial_fit), the next fit's.
    members, member = _plant(
        mixed_archives[estimator], attribute.split(".")[1], value
    )
    path = _write_archive(tmp_path / "m.augnb", members)
    with pytest.raises(ValueError, match="not a readable augnb model") as info:
        load_model(path)
    text = str(info.value)
    assert str(path) in text and "\n" not in text
    assert f"the array {member} ({attribute}) holds" in text
    assert ("NaN" if np.isnan(value) else "an infinity") in text


def test_a_planted_nan_exits_2_on_the_command_line(mixed_archives, tmp_path, capsys):
    members, member = _plant(mixed_archives["NaiveBayes"], "log_prob", np.nan)
    path = _write_archive(tmp_path / "m.augnb", members)
    for command in ("predict", "inspect"):
        capsys.readouterr()
        args = [command, str(path)] + (["rows.csv"] if command == "predict" else [])
        assert main(args) == 2
        err = capsys.readouterr().err
        assert f"{member} (CategoricalCPD.log_prob) holds NaN" in err
        assert err.count("\n") == 1


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_the_non_finite_values_fitted_models_hold_still_load(mixed_data, tmp_path):
    # Class labels of inf; cut points that overflowed on values near the
    # largest float (inf, and NaN for a mean: what fit made before cuts were
    # kept finite, so files saved then hold them); the missing values among a
    # kernel density's training points (NaN). Each is loaded.
    rng = np.random.default_rng(0)
    y = rng.choice([np.inf, 1.0], 120)
    X = pd.DataFrame(
        {
            "x": np.where(y == 1.0, -1.5e308, 1.6e308) * rng.uniform(0.5, 1, 120),
            "a": rng.choice(["u", "v"], 120),
        }
    )
    equal_width = NaiveBayes(discretizer="equal_width").fit(X, y)
    mean = NaiveBayes(discretizer="mean").fit(X, y)
    kernel = augnb.ENBC().fit(*mixed_data)
    # The cuts such a fit made then (now finite, tests/discretize).
    assert np.isfinite(equal_width.discretizer_.cut_points_["x"]).all()
    assert np.isfinite(mean.discretizer_.cut_points_["x"]).all()
    equal_width.discretizer_.cut_points_["x"] = np.array([-np.inf, 0.0, np.inf])
    mean.discretizer_.cut_points_["x"] = np.array([np.nan])
    assert np.isinf(equal_width.classes_).any()
    assert np.isinf(equal_width.discretizer_.cut_points_["x"]).any()
    assert np.isnan(mean.discretizer_.cut_points_["x"]).any()
    assert np.isnan(kernel.kde_.train).any()
    for k, (model, rows) in enumerate(
        [(equal_width, X), (mean, X), (kernel, mixed_data[0])]
    ):
        again = load_model(save_model(model, tmp_path / f"{k}.augnb"))
        np.testing.assert_array_equal(
            again.predict_proba(rows), model.predict_proba(rows)
        )


# -- parts that disagree ----------------------------------------------------------
# Each part below is well formed on its own (the array's shape is the one the
# document declares) and the two probe rows predict, so the file loaded; the
# disagreement then broke prediction on the first row with a missing value or
# another category: a NumPy error, probabilities that do not sum to 1, or a
# read past a table's end in a compiled kernel (a crash of the interpreter).


def _network(document):
    return document["model"]["v"]["model_"]["v"]


def _new_array(members, document, node, arr):
    """``members`` with ``node``'s array replaced by ``arr`` (declared anew)."""
    buffer = io.BytesIO()
    np.save(buffer, arr)
    node.update(shape=list(arr.shape), dtype=arr.dtype.str)
    return {
        **members,
        node["member"]: buffer.getvalue(),
        "model.json": json.dumps(document).encode(),
    }


def _table(members, edit, node=1):
    """The archive with ``edit`` applied to node ``node``'s log probabilities."""
    document = json.loads(members["model.json"])
    array = _network(document)["cpds"]["v"][node]["v"]["log_prob"]
    arr = np.load(io.BytesIO(members[array["member"]]))
    return _new_array(members, document, array, edit(arr))


def _document(edit):
    return lambda members: _edit_document(members, lambda d: edit(_network(d)))


def _domain_size(network, size=10**9):
    network["domains"]["v"][1]["v"]["size"] = size


def _parents(network, node, parents):
    network["structure"]["v"]["parents"]["v"][node] = {"t": "tuple", "v": parents}


def _cpd_parents(network):
    network["cpds"]["v"][1]["v"]["parent_nodes"] = {"t": "tuple", "v": [99]}


def _prior(members):
    document = json.loads(members["model.json"])
    node = _network(document)["class_log_prior"]
    arr = np.load(io.BytesIO(members[node["member"]]))
    return _new_array(members, document, node, arr[:-1] - np.log(arr[:-1].size))


def _cards(members):
    document = json.loads(members["model.json"])
    node = document["model"]["v"]["n_categories_"]
    arr = np.load(io.BytesIO(members[node["member"]])) + 1
    return _new_array(members, document, node, arr)


_DISAGREE = {
    # The value axis one short: rows of the last value read past it.
    "table one value short": (
        lambda m: _table(m, lambda a: np.ascontiguousarray(a[..., :-1])),
        "model_.cpds[1].log_prob is not float64 of shape (4, 4, 4)",
    ),
    "table one configuration short": (
        lambda m: _table(m, lambda a: np.ascontiguousarray(a[:-1])),
        "model_.cpds[1].log_prob is not float64 of shape (4, 4, 4)",
    ),
    # Crashed the interpreter on a row with a missing value (and a domain
    # of a billion values asked 89 GiB of another learner's tables).
    "domain larger than its table": (
        _document(_domain_size),
        "model_.domains[1] has 1000000000 values, not 4",
    ),
    "parent out of range": (
        _document(lambda n: _parents(n, 1, [99])),
        "model_.structure is not a valid structure (Node 1 has an invalid parent",
    ),
    "cycle": (
        _document(lambda n: _parents(n, 0, [1])),
        "model_.structure is not a valid structure (",
    ),
    "table of other parents": (
        _document(_cpd_parents),
        "model_.cpds[1]'s parents (99,) are not node 1's (0,)",
    ),
    "probabilities above 1": (
        lambda m: _table(m, lambda a: a + 1.0),
        "model_.cpds[1].log_prob holds probabilities that do not sum to 1",
    ),
    "a probability of 1e308": (
        lambda m: _table(m, lambda a: np.where(a == a.flat[-1], 1e308, a)),
        "model_.cpds[1].log_prob holds probabilities that do not sum to 1",
    ),
    "a class short": (_prior, "model_.class_log_prior is not float64 of shape (4,)"),
    "column cardinalities": (_cards, "n_categories_) are not its schema's"),
}


@pytest.mark.parametrize("case", list(_DISAGREE))
def test_parts_that_disagree_are_refused_at_load(case, saved_archive, tmp_path):
    damage, message = _DISAGREE[case]
    path = _write_archive(tmp_path / "m.augnb", damage(saved_archive))
    _assert_refused_naming(path, message)


def test_unnormalised_weighted_tables_are_still_checked(tmp_path):
    # normalize=False tables are powers P^w (w in [0, 1]) of distributions:
    # they load, but an entry above 1 (a damaged table) is still refused.
    X, y = load("car")
    model = augnb.AWNB(normalize=False, random_state=0).fit(X, y)
    path = save_model(model, tmp_path / "w.augnb")
    load_model(path)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    damaged = _write_archive(tmp_path / "d.augnb", _table(members, lambda a: a + 1.0))
    _assert_refused_naming(
        damaged, "model_.cpds[1].log_prob holds weighted probabilities above 1"
    )


def test_parts_that_disagree_exit_2_on_the_command_line(
    saved_archive, tmp_path, capsys
):
    path = _write_archive(
        tmp_path / "m.augnb", _document(_domain_size)(saved_archive)
    )
    for command in ("predict", "inspect", "export"):
        capsys.readouterr()
        args = {
            "predict": ["predict", str(path), "rows.csv"],
            "inspect": ["inspect", str(path)],
            "export": ["export", str(path), "--output", str(tmp_path / "m.bif")],
        }[command]
        assert main(args) == 2, command
        err = capsys.readouterr().err
        assert "model_.domains[1] has 1000000000 values" in err
        assert err.count("\n") == 1


@pytest.fixture(scope="module")
def aode_archive(tmp_path_factory):
    X, y = load("car")
    path = tmp_path_factory.mktemp("aode") / "aode.augnb"
    save_model(augnb.AODE().fit(X, y), path)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _aode_array(members, find, edit):
    """The archive with ``edit`` applied to the array node ``find`` picks."""
    document = json.loads(members["model.json"])
    node = find(document["model"]["v"])
    arr = np.load(io.BytesIO(members[node["member"]]))
    return _new_array(members, document, node, edit(arr))


def _shifted(arr):
    out = arr.copy()
    out[1:] += 1
    return out


_SPODES_DISAGREE = {
    # The kernel reads each SPODE's tables at these offsets: shifted by one
    # cell, it read another table's numbers (and, last, one past the end).
    "offsets": (
        lambda v: v["_packed"]["v"]["child_offsets"],
        _shifted,
        "_packed.child_offsets are not its tables' places",
    ),
    # The tables missing values are summed out with: another shape than
    # the kernel's, a NumPy error on a row with a missing value.
    "a view one value short": (
        lambda v: v["child_log_prob_"]["v"][0][1],
        lambda a: np.ascontiguousarray(a[:, :-1]),
        "child_log_prob_ is not the tables of _packed",
    ),
    "a view of other numbers": (
        lambda v: v["parent_log_prob_"][0],
        lambda a: a[::-1].copy(),
        "parent_log_prob_ is not the tables of _packed",
    ),
    "tables not summing to 1": (
        lambda v: v["_packed"]["v"]["child"],
        lambda a: a - 1.0,
        "_packed.child[0, 1] holds probabilities that do not sum to 1",
    ),
}


@pytest.mark.parametrize("case", list(_SPODES_DISAGREE))
def test_aode_tables_that_disagree_are_refused_at_load(case, aode_archive, tmp_path):
    find, edit, message = _SPODES_DISAGREE[case]
    path = _write_archive(tmp_path / "m.augnb", _aode_array(aode_archive, find, edit))
    _assert_refused_naming(path, message)


def _first_density(document):
    return _first(
        document,
        lambda n: isinstance(n, dict) and n.get("class") == "ConditionalGaussianCPD",
    )


def _density_array(name, edit):
    def damage(members):
        document = json.loads(members["model.json"])
        node = _first_density(document)["v"][name]
        arr = np.load(io.BytesIO(members[node["member"]]))
        return _new_array(members, document, node, edit(arr))

    return damage


def _density_of_a_category(members):
    def edit(document):
        schema = document["model"]["v"]["schema_"]["v"]["columns"]["v"]
        kinds = [column["v"]["kind"] for column in schema]
        _first_density(document)["v"]["feature"] = kinds.index("discrete")

    return _edit_document(members, edit)


_DENSITIES_DISAGREE = {
    # Summing out a missing value factorised a matrix of these: "Matrix is
    # not positive definite" from inside predict.
    "negative variance": (
        _density_array("var", lambda a: -a),
        ".var holds a variance <= 0",
    ),
    # One mixture weight more than there are components: an IndexError on
    # rows with a missing value.
    "a weight too many": (
        _density_array(
            "log_weight",
            lambda a: np.concatenate([a, a[..., :1]], axis=-1) - np.log(2),
        ),
        ".intercept is not float64 of shape",
    ),
    "a density of a discrete column": (
        _density_of_a_category,
        "is no density of a continuous column",
    ),
}


@pytest.mark.parametrize("case", list(_DENSITIES_DISAGREE))
def test_densities_that_disagree_are_refused_at_load(case, mixed_archives, tmp_path):
    damage, message = _DENSITIES_DISAGREE[case]
    path = _write_archive(tmp_path / "m.augnb", damage(mixed_archives["ETAN"]))
    _assert_refused_naming(path, message)


@pytest.mark.parametrize(
    "failure", [OSError(28, "No space left on device"), KeyboardInterrupt()]
)
def test_a_failed_save_leaves_the_old_model_and_no_temporary_file(
    failure, saved_archive, tmp_path, monkeypatch
):
    path = _write_archive(tmp_path / "m.augnb", saved_archive)
    before = path.read_bytes()
    X, y = load("car")
    model = augnb.KDB(k=2).fit(X, y)
    write_array = np.lib.format.write_array
    calls = []

    def fail_on_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # mid-archive: the document and two arrays written
            raise failure
        return write_array(*args, **kwargs)

    monkeypatch.setattr(np.lib.format, "write_array", fail_on_the_third)
    with pytest.raises(type(failure)):
        save_model(model, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.augnb"]


@pytest.fixture(scope="module")
def a2de_archive(tmp_path_factory):
    X, y = load("car")
    path = tmp_path_factory.mktemp("a2de") / "a2de.augnb"
    save_model(augnb.AnDE(n=2).fit(X.iloc[::4], y.iloc[::4]), path)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


_PAIRS_DISAGREE = {
    "offsets": (
        lambda v: v["_pair_packed"]["v"]["child_offsets"],
        lambda a: np.where(a > 0, a + 1, a),
        "_pair_packed.child_offsets are not its tables' places",
    ),
    "a view of other numbers": (
        lambda v: v["_pair_packed"]["v"]["pair_log_prob"]["v"][0][1],
        lambda a: a[::-1].copy(),
        "pair_log_prob is not the tables of _pair_packed",
    ),
    "tables not summing to 1": (
        lambda v: v["_pair_packed"]["v"]["log_prob"],
        lambda a: a + 0.5,
        "_pair_packed.log_prob[0, 1] holds probabilities that do not sum to 1",
    ),
}


@pytest.mark.parametrize("case", list(_PAIRS_DISAGREE))
def test_a2de_tables_that_disagree_are_refused_at_load(case, a2de_archive, tmp_path):
    find, edit, message = _PAIRS_DISAGREE[case]
    path = _write_archive(tmp_path / "m.augnb", _aode_array(a2de_archive, find, edit))
    _assert_refused_naming(path, message)


# -- a sweep of damaged parts ------------------------------------------------------


def _array_nodes(node):
    """Every array node of a JSON document, depth first."""
    if isinstance(node, dict):
        if node.get("t") == "array":
            yield node
        for child in node.values():
            yield from _array_nodes(child)
    elif isinstance(node, list):
        for child in node:
            yield from _array_nodes(child)


def _int_leaves(node, path=()):
    """The path of every plain integer of a document but ids and shapes."""
    if isinstance(node, dict):
        if node.get("t") in ("array", "ref"):
            return
        for key, child in node.items():
            if key not in ("id", "shape"):
                yield from _int_leaves(child, (*path, key))
    elif isinstance(node, list):
        for k, child in enumerate(node):
            yield from _int_leaves(child, (*path, k))
    elif type(node) is int:
        yield path


def _array_edits(arr):
    """Ways to damage an array: other shapes, out-of-range values."""
    if arr.size == 0:
        return
    if arr.ndim and arr.shape[-1] > 1:
        yield "last axis short", np.ascontiguousarray(arr[..., :-1])
    if arr.ndim and arr.shape[0] > 1:
        yield "first axis short", np.ascontiguousarray(arr[:-1])
    if arr.ndim:
        yield "last axis long", np.concatenate([arr, arr[..., -1:]], axis=-1)
    if arr.ndim > 1:
        yield "flattened", arr.reshape(-1)
    if arr.dtype.kind in "iu":
        for value in (-1, int(arr.max()) + 1, 10**6):
            out = arr.copy()
            with contextlib.suppress(OverflowError):
                out.flat[-1] = value
                yield f"a cell of {value}", out
    if arr.dtype.kind == "f":
        yield "negated", -np.abs(arr) - 1
        yield "as float32", arr.astype(np.float32)


def _variants(members, limit):
    """Up to ``limit`` damaged copies of an archive, with what was damaged."""
    document = json.loads(members["model.json"])
    found = []
    for k, node in enumerate(_array_nodes(document)):
        arr = np.load(io.BytesIO(members[node["member"]]))
        for what, new in _array_edits(arr):
            found.append((f"{node['member']} {what}", ("array", k, new)))
    for path in _int_leaves(document):
        for value in (-1, 10**9):
            what = f"{'/'.join(map(str, path[-3:]))} = {value}"
            found.append((what, ("int", path, value)))
    rng = np.random.default_rng(0)
    for k in sorted(rng.permutation(len(found))[:limit]):
        what, (kind, where, value) = found[k]
        damaged = json.loads(members["model.json"])
        if kind == "array":
            node = list(_array_nodes(damaged))[where]
            yield what, _new_array(members, damaged, node, value)
        else:
            node = damaged
            for key in where[:-1]:
                node = node[key]
            node[where[-1]] = value
            yield what, {**members, "model.json": json.dumps(damaged).encode()}


_SWEPT = {
    "TAN": (lambda: TAN(), "car"),
    "KDB-partial": (lambda: augnb.KDB(k=2), "hepatitis"),
    "AODE": (lambda: augnb.AODE(), "car"),
    "AnDE-2": (lambda: augnb.AnDE(n=2), "iris"),
    "ETAN": (lambda: augnb.ETAN(), "iris"),
    "ENBC": (lambda: augnb.ENBC(), "iris"),
    "ESKDB": (lambda: augnb.ESKDB(n_estimators=3, hdp_iterations=20), "iris"),
    "BSEJ": (lambda: augnb.BSEJ(), "car"),
}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", list(_SWEPT))
def test_a_damaged_part_is_refused_or_predicts(name, tmp_path):
    # Each damaged file either is refused at load (one line naming the
    # file) or loads a model that predicts distributions on rows with
    # missing values: never an error from inside predict.
    make, data = _SWEPT[name]
    X, y = load(data)
    model = make()
    if name.endswith("-partial"):
        model.partial_fit(X.iloc[::2], y.iloc[::2], classes=sorted(set(y)))
        model.partial_fit(X.iloc[1::2], y.iloc[1::2])
    else:
        model.fit(X, y)
    with zipfile.ZipFile(save_model(model, tmp_path / "m.augnb")) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    rows = X.mask(np.random.default_rng(1).random(X.shape) < 0.2)
    path = tmp_path / "damaged.augnb"
    for what, damaged in _variants(members, 150):
        _write_archive(path, damaged)
        try:
            again = load_model(path)
        except ValueError as exc:
            assert str(path) in str(exc) and "\n" not in str(exc), what
            continue
        proba = again.predict_proba(rows)
        assert np.isfinite(proba).all(), what
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, err_msg=what)


@pytest.fixture(scope="module")
def partial_archive(tmp_path_factory):
    X, y = load("car")
    model = augnb.KDB(k=2).partial_fit(X.iloc[::2], y.iloc[::2], classes=sorted(set(y)))
    path = tmp_path_factory.mktemp("partial") / "kdb.augnb"
    save_model(model, path)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _statistics(document):
    return document["model"]["v"]["statistics_"]["v"]


def _first_table_key(members):
    def edit(document):
        _statistics(document)["tables"]["v"][0][0] = {"t": "tuple", "v": [0, 99]}

    return _edit_document(members, edit)


_STATISTICS_DISAGREE = {
    # partial_fit adds the next rows' tables to these: a NumPy error.
    "a table one class short": (
        lambda m: _aode_array(
            m,
            lambda v: v["statistics_"]["v"]["tables"]["v"][0][1],
            lambda a: np.ascontiguousarray(a[..., :-1]),
        ),
        "statistics_.tables[(0, 1)] is not a table of counts of shape (4, 4, 4)",
    ),
    "a negative count": (
        lambda m: _aode_array(
            m, lambda v: v["statistics_"]["v"]["class_counts"], lambda a: a - 10**6
        ),
        "statistics_.class_counts holds a negative count",
    ),
    "a table of no column": (
        _first_table_key,
        "statistics_.tables holds a table of columns (0, 99)",
    ),
}


@pytest.mark.parametrize("case", list(_STATISTICS_DISAGREE))
def test_statistics_that_disagree_are_refused_at_load(
    case, partial_archive, tmp_path
):
    damage, message = _STATISTICS_DISAGREE[case]
    path = _write_archive(tmp_path / "m.augnb", damage(partial_archive))
    _assert_refused_naming(path, message)


def test_read_features_is_public_and_reads_a_new_file_as_the_model_was_fitted(
    tmp_path,
):
    # A model fitted on augnb.datasets.load's frame holds the categories
    # "1", "2", "3"; pd.read_csv of a new file gives integers, every one
    # unseen. augnb.read_features reads the file by the model's columns
    # and kinds: reordered, with an extra column, as `augnb predict` reads it.
    from augnb.datasets import load

    train = tmp_path / "train.csv"
    pd.DataFrame(
        {"grade": [1, 2, 3, 1, 2, 3] * 5, "sex": ["m", "f"] * 15,
         "y": [0, 1, 1, 0, 0, 1] * 5}
    ).to_csv(train, index=False)
    X, y = load(train, target="y")
    model = NaiveBayes().fit(X, y)
    new = tmp_path / "new.csv"
    pd.DataFrame({"extra": [9, 9], "sex": ["f", "m"], "grade": [3, 1]}).to_csv(
        new, index=False
    )
    X_new, y_new = augnb.read_features(new, model)
    assert y_new is None
    assert list(X_new.columns) == ["grade", "sex"]
    expected = model.predict_proba(
        pd.DataFrame({"grade": ["3", "1"], "sex": ["f", "m"]}).astype(X.dtypes)
    )
    np.testing.assert_array_equal(model.predict_proba(X_new), expected)
    # pd.read_csv's integers are all unseen: the warning names the reader.
    with pytest.warns(UserWarning, match=r"augnb\.read_features\(path, model\)"):
        model.predict_proba(pd.read_csv(new)[["grade", "sex"]])
