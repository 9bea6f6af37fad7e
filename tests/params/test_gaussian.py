from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB

from augnb import NaiveBayes
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params import GaussianCPD, MixedModel, fit_gaussian_cpd, fit_mixed_model
from augnb.structure import Structure


def _gaussian_nb_oracle(nb, X, y, var_smoothing=1e-9):
    # augnb smooths the class prior; GaussianNB's prior
    # is the ML frequency, so pass ours to compare the densities alone.
    prior = np.exp(nb.model_.class_log_prior)
    return GaussianNB(priors=prior, var_smoothing=var_smoothing).fit(X, y)


@pytest.mark.parametrize("name", ["iris", "wine", "vehicle", "segment"])
def test_gaussian_naive_bayes_equals_sklearn(name):
    X, y = load(name)
    nb = NaiveBayes(continuous="gaussian").fit(X, y)
    oracle = _gaussian_nb_oracle(nb, X.to_numpy(), y)
    np.testing.assert_allclose(
        nb.predict_log_proba(X), oracle.predict_log_proba(X.to_numpy()), atol=1e-9
    )
    np.testing.assert_array_equal(nb.predict(X), oracle.predict(X.to_numpy()))


def test_var_smoothing_is_passed_through():
    X, y = load("iris")
    nb = NaiveBayes(continuous="gaussian", var_smoothing=0.1).fit(X, y)
    oracle = _gaussian_nb_oracle(nb, X.to_numpy(), y, var_smoothing=0.1)
    np.testing.assert_allclose(
        nb.predict_log_proba(X), oracle.predict_log_proba(X.to_numpy()), atol=1e-9
    )


def test_missing_continuous_value_drops_its_factor():
    X, y = load("wine")
    nb = NaiveBayes(continuous="gaussian").fit(X, y)
    Xm = X.iloc[:20].copy()
    Xm.iloc[:, 3] = np.nan
    # Marginalising a childless Gaussian node drops its factor.
    got = nb.predict_log_proba(Xm)
    assert np.isfinite(got).all()
    gauss = [g for g in nb.model_.gaussians if g.feature != 3]
    jll = nb.model_.class_log_prior + sum(
        g.log_density(Xm.iloc[:, g.feature].to_numpy()) for g in gauss
    )
    want = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_fit_uses_available_cases():
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    y = rng.integers(0, 2, size=200)
    x[::7] = np.nan
    mean, var, counts = fit_gaussian_cpd(x, y, 2, epsilon=0.0)
    for c in range(2):
        xc = x[(y == c) & ~np.isnan(x)]
        assert counts[c] == xc.size
        assert mean[c] == pytest.approx(xc.mean())
        assert var[c] == pytest.approx(xc.var())


def test_class_without_observed_values_gets_pooled_gaussian():
    x = np.array([1.0, 2.0, 3.0, np.nan, np.nan])
    y = np.array([0, 0, 0, 1, 1])
    mean, var, counts = fit_gaussian_cpd(x, y, 2, epsilon=1e-9)
    assert counts.tolist() == [3.0, 0.0]
    assert mean[1] == pytest.approx(2.0) and var[1] == pytest.approx(2 / 3 + 1e-9)


def test_log_density_matches_scipy():
    from scipy.stats import norm

    cpd = GaussianCPD(0, np.array([0.0, 2.0]), np.array([1.0, 4.0]), np.ones(2))
    x = np.array([-1.0, 0.5, np.nan, 3.0])
    got = cpd.log_density(x)
    want = np.column_stack([norm.logpdf(x, 0, 1), norm.logpdf(x, 2, 2)])
    want[2] = 0.0
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_mixed_data_combines_cpts_and_gaussians():
    X, y = load("credit_approval")
    nb = NaiveBayes(continuous="gaussian").fit(X, y)
    assert isinstance(nb.model_, MixedModel)
    continuous = [c for c in X.columns if X[c].dtype.kind == "f"]
    assert len(nb.model_.gaussians) == len(continuous)
    proba = nb.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # The log joint is the discrete NB's plus the Gaussian factors.
    data = nb.schema_.encode(X)
    discrete_only = joint_log_likelihood(nb.model_.discrete, data.codes)
    extra = sum(g.log_density(data.values[:, g.feature]) for g in nb.model_.gaussians)
    np.testing.assert_allclose(
        nb.predict_joint_log_proba(X), discrete_only + extra, atol=1e-10
    )
    assert nb.score(X, y) > 0.7


def test_continuous_parent_of_a_discrete_node_is_rejected():
    # A continuous parent of a discrete child (CPDC) is forbidden (Li 2003).
    codes = np.zeros((4, 2), dtype=np.int32)
    codes[:, 1] = [0, 1, 0, 1]
    codes[:, 0] = -1
    values = np.full((4, 2), np.nan)
    values[:, 0] = [0.1, 0.2, 0.3, 0.4]
    structure = Structure.from_arcs([(1,), (0,)], [(1, 0)], 2)
    with pytest.raises(ValueError, match="CPDC"):
        fit_mixed_model(
            structure, codes, values, np.array([0, 1, 0, 1]), np.array([0, 2]), 2
        )


def test_continuous_parameter_is_validated():
    X, y = load("iris")
    with pytest.raises(ValueError, match="continuous must be"):
        NaiveBayes(continuous="kde").fit(X, y)
    with pytest.raises(ValueError, match="var_smoothing"):
        NaiveBayes(continuous="gaussian", var_smoothing=-1).fit(X, y)


def test_infinite_value_in_gaussian_column_is_an_error():
    X = pd.DataFrame({"temp": [1.0, 2.0, np.inf, 4.0], "k": ["a", "b", "a", "b"]})
    with pytest.raises(ValueError, match=r"'temp'.*infinite"):
        NaiveBayes(continuous="gaussian").fit(X, [0, 1, 0, 1])


def test_conditional_cpd_fields_floor_a_zero_variance_and_key_the_configurations():
    from augnb.params.gaussian import ConditionalGaussianCPD, conditional_cpd_fields

    var = np.array([[[0.0], [2.0]]])
    fields = conditional_cpd_fields(
        np.array([3], dtype=np.int32),
        np.zeros_like(var),
        np.ones_like(var),
        np.zeros((1, 2, 0)),
        var,
        np.array([[4.0, 5.0]]),
    )
    assert fields["config_keys"].dtype == np.int64
    assert fields["var"][0, 0, 0] == np.finfo(np.float64).tiny
    assert fields["var"][0, 1, 0] == 2.0
    cpd = ConditionalGaussianCPD(
        feature=0, discrete_parents=(), parent_radix=(), continuous_parents=(),
        **fields,
    )
    assert cpd.n_components == 1


def test_a_value_with_no_representable_density_is_left_out():
    # 1e200 lies some 1e200 standard deviations from both means: its squared
    # distance overflows, the log density is -inf under every class, and the
    # posterior was NaN. The factor is dropped, as a missing value's.
    cpd = GaussianCPD(0, np.array([0.0, 2.0]), np.array([1.0, 4.0]), np.ones(2))
    out = cpd.log_density(np.array([1e200, -1e200, 1.0, np.nan]))
    assert np.array_equal(out[[0, 1, 3]], np.zeros((3, 2)))
    assert np.isfinite(out[2]).all() and out[2, 0] != out[2, 1]


@pytest.mark.parametrize("continuous", ["gaussian", "gmm"])
def test_far_outlier_predicts_as_a_missing_value(continuous):
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 20)
    X = pd.DataFrame({"a": rng.normal(size=40) + y, "b": rng.normal(size=40) - y})
    model = NaiveBayes(continuous=continuous, random_state=0).fit(X, y)
    far = X.iloc[:2].copy()
    far.iloc[0, 0] = 1e200
    missing = far.copy()
    missing.iloc[0, 0] = np.nan
    proba = model.predict_proba(far)
    assert np.isfinite(proba).all()
    np.testing.assert_array_equal(proba, model.predict_proba(missing))


def test_far_outlier_of_conditional_gaussians_has_finite_posteriors():
    from augnb import CAN, ETAN

    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 20)
    a = rng.normal(size=40) + y
    X = pd.DataFrame({"a": a, "b": a + rng.normal(size=40) - y})
    far = X.iloc[:2].copy()
    far.iloc[0, 0] = 1e200
    for model in (CAN(), ETAN()):
        proba = model.fit(X, y).predict_proba(far)
        assert np.isfinite(proba).all()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
