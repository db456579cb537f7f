// Exit codes beyond the shared ones (0 ok, 1 failure, 2 usage, 130 interrupted by Ctrl+C).

/** SIGTERM ends the program with 128 + 15, as shells report a terminated process; Ctrl+C (SIGINT) stays 130. */
export const terminatedExitCode = 143;
