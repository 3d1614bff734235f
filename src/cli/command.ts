export interface CliCommand {
  name: string;
  /** One line for `skindesk --help`. */
  summary: string;
  /** Full usage text for `skindesk <name> --help`. */
  usage: string;
  /** Resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}
