/**
 * A failed contract check in a line of words: the first few issues as `path: message`, never the values
 * themselves (a value may be a key, a token or a whole frame). For warnings, logs and error messages;
 * zod's own message is the issues as multi-line JSON.
 */
export interface IssueList {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

export function summarizeIssues(
  error: IssueList,
  { max = 5, root = '(root)' }: { max?: number; root?: string } = {},
): string {
  return error.issues
    .slice(0, max)
    .map((i) => `${i.path.map(String).join('.') || root}: ${i.message}`)
    .join('; ');
}
