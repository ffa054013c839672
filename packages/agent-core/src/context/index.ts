export {
  ContextCompressionError,
  DEFAULT_COMPRESSION_THRESHOLD,
  contextEngineProblem,
  type CompressInput,
  type CompressionResult,
  type ContextEngine,
  type ShouldCompressInput,
  type Summarize,
} from './contextEngine.ts';
export { ContextCompressor, planCompression, type CompressionPlan, type ContextCompressorOptions } from './contextCompressor.ts';
export { DEFAULT_CONTEXT_WINDOW, lookupContextWindow, resolveContextWindow, type ContextWindow } from './contextWindows.ts';
export { INTERRUPTED_CALL_RESULT, healMessageSequence, isCutPoint, validateMessageSequence, type HealedSequence } from './messageSequence.ts';
export { SUMMARY_PREFIX, SUMMARY_SUFFIX, isSummaryMessage, makeSummaryMessage, summaryMessageText } from './summaryPrompt.ts';
export { estimateMessageTokens, estimateMessagesTokens, estimatePromptTokens, estimateTextTokens, estimateToolsTokens } from './tokens.ts';
