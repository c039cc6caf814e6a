import { NonIdealState } from '@blueprintjs/core';

/** The AI Agent tab (SPEC §2): the AI management view is wired in here once the AI agent is enabled. */
export default function AiAgentTab() {
    return (
        <NonIdealState
            icon="predictive-analysis"
            title="AI Agent"
            description="AI agent figures appear when the AI agent is enabled"
            layout="horizontal"
        />
    );
}
