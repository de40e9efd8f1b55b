"""The game itself: cards, the drawing rules, shoes, and the fields a bet can ask about."""
