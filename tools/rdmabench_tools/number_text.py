"""What a printed figure may show of a double: about 16 significant digits. A figure below
PRECISE_WHOLE prints whole where that is the tools' style (18430, 12 000); above it the digits
a whole number would show are no figure, so it prints in significant digits (1.843e+300)."""

PRECISE_WHOLE = 1e15
