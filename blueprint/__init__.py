"""The blueprint: counterfactual regret minimisation solvers and the hold'em strategy trainer."""
