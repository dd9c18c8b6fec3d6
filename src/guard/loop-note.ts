import type { LoopEvidence } from '../core/guard-state.js';
import { type ModelTextPart, modelText, toolNamePart } from '../gate/model-text.js';

const NOTE = 'NOTE from the runtime: ';

/**
 * The note the model gets beside a result when the guard sees a loop coming: what actually repeated, and
 * what to do instead. One text per detector; the tool's own content is never changed. It holds only tool
 * names and numbers, and still leaves through the gate like every text the model reads (a name the model
 * made up is foreign text there).
 */
export function loopNote(evidence: LoopEvidence): string {
  return modelText(noteParts(evidence));
}

function noteParts(evidence: LoopEvidence): ModelTextPart[] {
  const tool: ModelTextPart[] = [];
  for (const [index, name] of evidence.toolNames.entries()) {
    if (index > 0) tool.push(', ');
    tool.push(toolNamePart(name));
  }
  const rounds = evidence.rounds.join(', ');
  const times = evidence.occurrences;
  switch (evidence.detector) {
    case 'exact-repeat':
      return [
        NOTE,
        ...tool,
        ` was called with these same arguments ${times} times (rounds ${rounds}) and gave the same result each time. Calling it again will give the same result: use this result, call it with different arguments, or answer with what you have.`,
      ];
    case 'same-result':
      return evidence.fingerprints.every((f) => f.outcome !== 'ok')
        ? [
            `${NOTE}${times} different calls to `,
            ...tool,
            ` (rounds ${rounds}) failed the same way. Changing the input or the tool does not get past it: tell the user what the error says, or ask them.`,
          ]
        : [
            `${NOTE}${times} different calls to `,
            ...tool,
            ` (rounds ${rounds}) gave the same result. Changing the arguments this way does not change it: answer with what you have, or try another approach.`,
          ];
    case 'unchanged-poll':
      return [
        NOTE,
        ...tool,
        ` has answered the same ${times} times (rounds ${rounds}); it has not changed yet. Polling again right away will not change it: wait before checking again, or tell the user it is still in progress.`,
      ];
    case 'no-progress':
      return [
        `${NOTE}the last ${times} rounds (${rounds}) only repeated calls and results already seen in this request. Answer with what you have, or change your approach.`,
      ];
    case 'cycle':
      return [
        `${NOTE}the last rounds repeat the same sequence of calls and results (`,
        ...tool,
        '). Answer with what you have, or change your approach.',
      ];
    case 'still-unavailable':
      return [
        NOTE,
        ...tool,
        ` is still unavailable after ${times} attempts (rounds ${rounds}). Do not call it again in this request.`,
      ];
    default: {
      const unreachable: never = evidence.detector;
      throw new TypeError(`unknown detector ${String(unreachable)}`);
    }
  }
}
