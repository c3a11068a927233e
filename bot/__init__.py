"""The trick-taking card games bot."""
