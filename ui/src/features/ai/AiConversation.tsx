import { useAiConversation } from '../../api/ai';
import './ai.css';

/**
 * What the customer said to the AI agent before a live chat (issue 13: the agent's hand-off carries the
 * original question and the AI conversation): shown above the live conversation in the console.
 */
export function AiConversation({ sessionId, originalQuestion }: { sessionId: string | null; originalQuestion?: string | null }) {
    const conversation = useAiConversation(sessionId);
    const turns = conversation.data ?? [];
    if (!turns.length && !originalQuestion) {
        return null;
    }
    return (
        <section className="lc-ai-conversation" aria-label="Conversation with the AI agent" data-testid="ai-conversation">
            <h3>Before the transfer, with the AI agent</h3>
            {originalQuestion && <p><strong>Original question:</strong> {originalQuestion}</p>}
            <ol>
                {turns.map((t) => (
                    <li key={t.id}>
                        <div><strong>Customer:</strong> {t.userQuestion}</div>
                        <div className="lc-ai-turn-a"><strong>AI:</strong> {t.aiResponse}</div>
                    </li>
                ))}
            </ol>
        </section>
    );
}
