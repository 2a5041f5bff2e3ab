class IS NOT NULL AND NOT blocked
