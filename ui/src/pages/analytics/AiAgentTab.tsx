import { AiAgentPanel } from '../../features/ai/AiAgentPanel';

/** The AI Agent tab (SPEC §2): the AI agent's figures, Enable/Disable and the way to /ai-management. */
export default function AiAgentTab() {
    return <AiAgentPanel />;
}
