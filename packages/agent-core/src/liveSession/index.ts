/** The session service: the one owner of every change to a live session, and what it reports. */
export { SessionService, branchStored, saveApprovalMode, type CompressSummary, type OpenSessionInput, type SessionRuntime } from './sessionService.ts';
export type { SessionFacts } from './sessionInfo.ts';
export { parseModelValue, MODEL_VALUE_HINT } from './modelValue.ts';
export {
  exportConversation,
  exportedSession,
  toHtml,
  toJson,
  toMarkdown,
  toTranscript,
  toTranscriptText,
  type ExportedSession,
} from './sessionExport.ts';
export { ApprovalModeError, CompressInterruptedError, ModelValueError } from './sessionErrors.ts';
