// A module that fails while loading with an error message full of terminal escapes: clear the screen,
// colour, retitle the terminal, ring the bell, a line break that would forge a line of its own.
throw new Error(
  '\u001b[2J\u001b[31mORDERS_DB_URL\u001b[0m is not set\u001b]0;pwned\u0007\u0007\nPASS  everything',
);
