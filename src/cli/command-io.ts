/** Where a command writes; each write resolves once the text is handed to the stream. */
export interface CommandIo {
  readonly cwd: string;
  readonly stdout: (text: string) => Promise<void>;
  readonly stderr: (text: string) => Promise<void>;
  /** stderr is a terminal (progress may rewrite its line). */
  readonly stderrIsTty?: boolean;
  /** Aborted on Ctrl-C, for the commands that run something long (`run`). */
  readonly signal?: AbortSignal;
}
