"""The baseline opponents of the study: fish, honest, random, rule-based and Monte Carlo."""
