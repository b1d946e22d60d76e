"""Standings: /leaderboard, /me, /export."""
