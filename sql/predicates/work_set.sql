NOT blocked AND at < correlated_at
