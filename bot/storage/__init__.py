"""The database: models, repositories, migrations and the group-commit writer."""
