from __future__ import annotations

import pytest

import augnb
import augnb.classifiers
from augnb.classifiers.registry import exported_names
from augnb.evaluation import registry
from augnb.evaluation.registry import (
    available_estimators,
    estimator_class,
    make_estimator,
)


@pytest.mark.parametrize(
    ("name", "cls_name"),
    [
        ("NaiveBayes", "NaiveBayes"),
        ("nb", "NaiveBayes"),
        ("NB", "NaiveBayes"),
        ("naive-bayes", "NaiveBayes"),
        ("naive_bayes", "NaiveBayes"),
        ("tan", "TAN"),
        ("FSS", "FSS"),
        ("fssj", "FSSJ"),
        ("ffss", "FFSS"),
        ("SelectiveTAN", "SelectiveTAN"),
        ("STAN", "SelectiveTAN"),
        ("bsej", "BSEJ"),
        ("ASB", "AugmentedSemiNaiveBayes"),
        ("AugmentedSemiNaiveBayes", "AugmentedSemiNaiveBayes"),
    ],
)
def test_names_and_aliases_are_case_insensitive(name, cls_name):
    # A class the package no longer exports fails here (getattr), never skips.
    est = make_estimator(name)
    assert type(est) is getattr(augnb, cls_name)


def test_params_are_passed():
    est = make_estimator("TAN", alpha=0.5)
    assert est.get_params()["alpha"] == 0.5


def test_unknown_name_lists_the_available_ones():
    with pytest.raises(ValueError, match=r"unknown estimator 'nope'.*NaiveBayes"):
        make_estimator("nope")


def test_a_misspelt_name_is_told_the_closest_estimators():
    with pytest.raises(ValueError) as info:
        make_estimator("NaiveBays")
    message = str(info.value)
    assert "did you mean 'NaiveBayes'?" in message, message
    assert "`augnb estimators` lists their aliases" in message
    # An alias misspelt points to its class.
    with pytest.raises(ValueError, match="did you mean 'HillClimbingTAN'"):
        make_estimator("tan_hx")
    with pytest.raises(ValueError) as info:
        make_estimator("zzzzzz")
    assert "did you mean" not in str(info.value)


def test_unknown_param_is_a_value_error():
    with pytest.raises(ValueError, match="does not take"):
        make_estimator("NB", not_a_param=1)


def test_unknown_param_names_only_the_wrong_ones_with_the_closest():
    # alpha is TAN's: only k is refused, and a misspelling is pointed to.
    with pytest.raises(ValueError) as info:
        make_estimator("TAN", alpha=0.5, k=2)
    message = str(info.value)
    assert message.startswith("TAN does not take ['k']; its parameters are"), message
    with pytest.raises(
        ValueError, match=r"\['apha'\] \(did you mean 'apha' -> 'alpha'\?\)"
    ):
        make_estimator("TAN", apha=0.5)


def test_available_estimators_are_all_makeable():
    names = available_estimators()
    assert names[:2] == ["NaiveBayes", "TAN"]
    assert len(names) == len(set(names))
    for name in names:
        assert estimator_class(name).__name__ in dir(augnb)


def test_registry_is_read_from_the_exports(monkeypatch):
    # A class taken out of the classifiers' exports is no estimator any more ...
    exports = [name for name in augnb.classifiers.__all__ if name != "TAN"]
    monkeypatch.setattr(augnb.classifiers, "__all__", exports)
    assert "TAN" not in available_estimators()
    with pytest.raises(ValueError, match="unknown estimator 'tan'"):
        make_estimator("tan")
    # ... and one exported later is picked up without any change here.
    monkeypatch.setattr(augnb.classifiers, "__all__", [*exports, "TAN"])
    assert type(make_estimator("tan")) is augnb.TAN


def test_both_namespaces_export_every_estimator():
    # augnb re-exports the classifiers' list (written once there), and no
    # other class deriving from the base class is exported by either.
    names = set(exported_names())
    assert set(augnb.classifiers.__all__) <= set(augnb.__all__)
    assert names <= set(augnb.classifiers.__all__)
    for module in (augnb, augnb.classifiers):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, augnb.BaseAugmentedNB):
                assert name in names or obj is augnb.BaseAugmentedNB


def test_aliases_and_summaries_are_read_from_each_class():
    rows = {
        name: (aliases, text) for name, aliases, text in registry.describe_estimators()
    }
    assert rows["NaiveBayes"] == (augnb.NaiveBayes._aliases, augnb.NaiveBayes._summary)
    # Not inherited: AnDE subclasses AODE but is not one of its names.
    assert "averaged_one_dependence_estimators" not in rows["AnDE"][0]
    assert estimator_class("averaged_one_dependence_estimators") is augnb.AODE
    assert rows["AnDE"][1] == augnb.AnDE._summary
    # Every registered estimator answers to its class name.
    for name in augnb.estimators():
        assert estimator_class(name.lower()) is augnb.estimators()[name]


def test_names_of_other_packages_are_explained(monkeypatch):
    # bnclassify's fssj is augnb's FSSJ; a name of an algorithm augnb lacks
    # is refused with its explanation rather than as unknown.
    assert estimator_class("fssj") is augnb.FSSJ
    import augnb.classifiers.registry as classifier_registry

    monkeypatch.setitem(
        classifier_registry._NOT_AVAILABLE, "lacking", "lacking is not in augnb"
    )
    with pytest.raises(ValueError, match="lacking is not in augnb"):
        estimator_class("Lacking")


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("NaiveBays", "'NaiveBayes'"),
        ("naive_bays", "'NaiveBayes'"),
        ("SelectivTAN", "'SelectiveTAN'"),
        ("tan_hsp", "'SuperParentTAN'"),
        ("WANBA", "'WANBIA'"),
    ],
)
def test_unknown_name_suggests_the_closest(typo, meant):
    with pytest.raises(ValueError, match=rf"did you mean {meant}\?\); available"):
        make_estimator(typo)


def test_unknown_name_far_from_any_suggests_none():
    with pytest.raises(ValueError) as info:
        make_estimator("RandomForest")
    assert "did you mean" not in str(info.value)
