import { expect } from 'chai';
import { decide, Decision, DecisionStep, topicOf } from '../../plugins/conversation/services/decide';
import { findCode, findPhone } from '../../plugins/conversation/services/phones';
import { KnowledgeIndex } from '../../plugins/ai/services/retrieval';
import { answerSources, knowledgeMatch } from '../../plugins/ai/services/ai-service';
import { DEMO_KNOWLEDGE } from '../../plugins/ai/demo-data';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';

/**
 * The scripted conversation suite (issue 23): real-sounding messages in every step of the widget, each with what the
 * decision must say it is, against the demo store (its knowledge entries and five default questions, through the AI
 * plugin's own retrieval and confidence), in English and Spanish.
 */

const QUESTIONS = DEFAULT_QUESTIONS.map((q, i) => ({ id: i + 1, question: q.question, kind: q.kind }));
const INDEX = new KnowledgeIndex(answerSources(DEMO_KNOWLEDGE.map((k, i) => ({ id: i + 1, ...k })),
    DEFAULT_QUESTIONS.map((q, i) => ({ id: i + 1, question: q.question, answer: q.answer })), { storeName: 'Demo Store', domain: 'demo.local' }));

/** What the service does: the AI plugin's retrieval on the message's topic, then the decision. */
function decideFor(step: DecisionStep, text: string, lang = 'en', country = 'US'): Decision {
    const topic = topicOf(text, lang);
    return decide({ step, text, lang, country, questions: QUESTIONS, knowledge: /\p{L}/u.test(topic) ? knowledgeMatch(INDEX, topic) : null });
}

/** [message, kind, what else the answer says] — `es:` before a message: the customer's language is Spanish. */
type Script = Array<[string, Decision['kind'], Partial<Decision>?]>;

const PHONE = { phone: '+15555550100' };

const IDENTIFIER: Script = [
    // phones, in sentences and in several formats
    ['555-555-0100', 'phone', PHONE],
    ['(555) 555-0100', 'phone', PHONE],
    ['5555550100', 'phone', PHONE],
    ['+1 555 555 0100', 'phone', PHONE],
    ['555.555.0100', 'phone', PHONE],
    ['my number is 555-555-0100, how many points?', 'phone', PHONE],
    ["it's 555 555 0100", 'phone', PHONE],
    ['sure, 555-555-0100', 'phone', PHONE],
    ['Phone: +15555550100', 'phone', PHONE],
    ['you can reach me at (555) 555 0100 thanks', 'phone', PHONE],
    ['+44 7911 123456', 'phone', { phone: '+447911123456' }],
    ['my cell is +34 612 345 678', 'phone', { phone: '+34612345678' }],
    ['uh 555 555 0100 I think', 'phone', PHONE],
    ['555-555-0100.', 'phone', PHONE],
    ['1-555-555-0100', 'phone', PHONE],
    ['it should be 555 555 0100 or maybe the other one', 'phone', PHONE],
    ['number 555-555-0199 please', 'phone', { phone: '+15555550199' }],
    ['tel:5555550100', 'phone', PHONE],
    ['es:mi número es 555-555-0100', 'phone', PHONE],
    ['es:ya te lo dije: 555 555 0100', 'phone', PHONE],
    // changes of mind
    ['never mind', 'cancel', { leave: true }],
    ['nevermind', 'cancel', { leave: true }],
    ['cancel', 'cancel', { leave: true }],
    ['Cancel please', 'cancel', { leave: true }],
    ['forget it', 'cancel', { leave: true }],
    ['stop', 'cancel', { leave: true }],
    ['no thanks', 'cancel', { leave: true }],
    ['nope', 'cancel', { leave: true }],
    ['actually never mind', 'cancel', { leave: true }],
    ['ok forget about it', 'cancel', { leave: true }],
    ['I changed my mind', 'cancel', { leave: true }],
    ['never mind, what are your store hours', 'question', { leave: true, question: 'What are your store hours?', questionId: 4 }],
    ['never mind, are you open on sunday', 'question', { leave: true, question: 'are you open on sunday' }],
    ['never mind what are', 'question', { leave: true, question: 'what are' }],
    ['forget it, can I pay with apple pay?', 'question', { leave: true, question: 'can I pay with apple pay?' }],
    ['cancel, I want to talk to someone', 'human', { leave: true }],
    ['es:olvídalo', 'cancel', { leave: true }],
    ['es:cancelar', 'cancel', { leave: true }],
    ['es:no importa, ¿aceptan Apple Pay?', 'question', { leave: true, question: '¿aceptan Apple Pay?' }],
    // questions asked inside the step: answered, the step stays
    ['can I pay with apple', 'question', { leave: false, knowledge: { kind: 'knowledge', id: 10, title: 'Payment methods', confidence: 0.885 } }],
    ['when do my points expire', 'question', { leave: false, knowledge: { kind: 'knowledge', id: 6, title: 'Points expiration', confidence: 0.902 } }],
    ['what are your store hours?', 'question', { questionId: 4 }],
    ['do you ship to canada?', 'question'],
    ['how do I earn points?', 'question', { questionId: 5 }],
    ['Is delivery free?', 'question'],
    ['what is your return policy?', 'question'],
    ['wait, do my points ever expire?', 'question', { question: 'do my points ever expire?' }],
    ['where is my order', 'question'],
    ['es:¿cuál es el horario de la tienda?', 'question', { leave: false }],
    // a person
    ['agent', 'human', { leave: true }],
    ['I want to talk to a person', 'human'],
    ['Can a person help me with my order?', 'human'],
    ['could someone help me with a return', 'human'],
    ['can I speak to a human please', 'human'],
    ['representative', 'human'],
    ['live chat', 'human'],
    ['Talk to live support', 'human', { questionId: 3 }],
    ['es:quiero hablar con un agente', 'human'],
    // politeness: the step is offered again
    ['hi', 'greeting'],
    ['hello there', 'greeting'],
    ['good morning', 'greeting'],
    ['thanks', 'thanks'],
    ['ok', 'thanks'],
    ['yes', 'thanks'],
    ['es:hola', 'greeting'],
    ['es:gracias', 'thanks'],
    // asking for the points again: the phone is asked again
    ['check my points', 'points'],
    ['how many points do I have', 'points'],
    // nothing to act on: one error line
    ['asdfgh', 'garbage', { expected: 'phone' }],
    ['???', 'garbage', { expected: 'phone' }],
    ['12345', 'garbage', { expected: 'phone' }],
    ['555-01', 'garbage', { expected: 'phone' }],
    ['lol', 'garbage', { expected: 'phone' }],
    ['123456', 'garbage', { expected: 'phone' }],
    ['😀', 'garbage', { expected: 'phone' }],
    ['my number is 555', 'garbage', { expected: 'phone' }],
    ['points', 'garbage', { expected: 'phone' }],
    ['es:jajaja', 'garbage', { expected: 'phone' }]
];

const CODE: Script = [
    // codes
    ['123456', 'code', { code: '123456' }],
    ['123 456', 'code', { code: '123456' }],
    ['123-456', 'code', { code: '123456' }],
    ['my code is 654321', 'code', { code: '654321' }],
    ['the code is 000111 thanks', 'code', { code: '000111' }],
    ['Code: 987654', 'code', { code: '987654' }],
    ['1 2 3 4 5 6', 'code', { code: '123456' }],
    ['it says 246810', 'code', { code: '246810' }],
    ['  135790  ', 'code', { code: '135790' }],
    ['here: 112233.', 'code', { code: '112233' }],
    ['ok 445566', 'code', { code: '445566' }],
    ['es:el código es 778899', 'code', { code: '778899' }],
    // the code did not come
    ["I didn't get a code", 'resend'],
    ['I did not receive the code', 'resend'],
    ['didnt get it', 'resend'],
    ['nothing came', 'resend'],
    ['no code yet', 'resend'],
    ['can you send it again?', 'resend'],
    ['resend please', 'resend'],
    ['send me a new code', 'resend'],
    ['the code expired', 'resend'],
    ["I haven't received anything", 'resend'],
    ['still waiting for the text', 'resend'],
    ['where is the code?', 'resend'],
    ['es:no me llegó el código', 'resend'],
    ['es:reenvíalo por favor', 'resend'],
    ['es:no he recibido nada', 'resend'],
    // changes of mind
    ['never mind', 'cancel', { leave: true }],
    ['cancel', 'cancel', { leave: true }],
    ['stop', 'cancel', { leave: true }],
    ['forget it', 'cancel', { leave: true }],
    ['no', 'cancel', { leave: true }],
    ['never mind, where is your store?', 'question', { leave: true, question: 'where is your store?' }],
    ['es:olvídalo', 'cancel', { leave: true }],
    // another number
    ['wrong number', 'points', { leave: true }],
    ["that's not my number", 'points', { leave: true }],
    ['wrong number, it is 555-555-0199', 'phone', { phone: '+15555550199' }],
    ['555-555-0100', 'phone', PHONE],
    ['oops use 555 555 0123 instead', 'phone', { phone: '+15555550123' }],
    // questions
    ['when do my points expire?', 'question', { leave: false }],
    ['can I pay with apple pay?', 'question'],
    ['how long is the code valid?', 'question'],
    ['what are your store hours?', 'question', { questionId: 4 }],
    ['do you ship to canada?', 'question'],
    ['How do I redeem points in store?', 'question', { questionId: 2 }],
    // a person
    ['agent please', 'human'],
    ['I need to talk to a real person', 'human'],
    ['customer service', 'human'],
    ['es:hablar con un humano', 'human'],
    // politeness
    ['hello', 'greeting'],
    ['thank you', 'thanks'],
    ['ok', 'thanks'],
    ['es:buenas tardes', 'greeting'],
    ['check my points', 'points', { leave: false }],
    // nothing to act on
    ['12345', 'garbage', { expected: 'code' }],
    ['1234567', 'garbage', { expected: 'code' }],
    ['abc', 'garbage', { expected: 'code' }],
    ['asdf', 'garbage', { expected: 'code' }],
    ['...', 'garbage', { expected: 'code' }],
    ['lol', 'garbage', { expected: 'code' }],
    ['xyz', 'garbage', { expected: 'code' }],
    ['12 34 5', 'garbage', { expected: 'code' }],
    ['my code is 12345', 'garbage', { expected: 'code' }],
    ['haha', 'garbage', { expected: 'code' }],
    ['qwerty', 'garbage', { expected: 'code' }]
];

/** Where the customer is not in the middle of a step: the questions, and after a greeting, the points or an AI answer. */
const FREE: Script = [
    // a phone offered on its own or with a request for points
    ['555-555-0100', 'phone', PHONE],
    ['my number is 555-555-0100, how many points?', 'phone', PHONE],
    ['check points for 555 555 0100', 'phone', PHONE],
    ['here is my number 5555550100', 'phone', PHONE],
    ['+1 (555) 555-0100', 'phone', PHONE],
    ['es:mi teléfono es 555-555-0100, ¿cuántos puntos tengo?', 'phone', PHONE],
    // their own points
    ['check my points', 'points'],
    ['how many points do I have', 'points'],
    ['what is my points balance', 'points'],
    ['show me my points', 'points'],
    ['Check my loyalty points', 'points', { questionId: 1 }],
    ['es:¿cuántos puntos tengo?', 'points'],
    ['es:mis puntos', 'points'],
    // knowledge over keywords: "points" alone never forces the phone step
    ['when do my points expire', 'question', { knowledge: { kind: 'knowledge', id: 6, title: 'Points expiration', confidence: 0.902 } }],
    ['do my points ever expire?', 'question'],
    ['how do I earn points?', 'question', { questionId: 5 }],
    ['points', 'question'],
    ['can I use my points online?', 'question'],
    ['how do I redeem my points', 'question'],
    // questions
    ['what are your store hours?', 'question', { questionId: 4 }],
    ['are you open on sunday', 'question'],
    ['Is delivery free?', 'question'],
    ['do you ship to canada', 'question'],
    ['can I pay with apple', 'question'],
    ['how do returns work', 'question'],
    ['I want to return a jacket', 'question'],
    ['any promotions right now?', 'question'],
    ['tell me about the birthday reward', 'question'],
    ['do you price match', 'question'],
    ['where is my order', 'question'],
    ['how do I join the loyalty program', 'question'],
    ['do you support apple pay?', 'question'],
    ['gift cards?', 'question'],
    ['hi, what are your hours?', 'question', { question: 'what are your hours?' }],
    ['es:¿aceptan Apple Pay?', 'question'],
    ['es:¿cuál es el horario?', 'question'],
    // a person
    ['agent', 'human'],
    ['human please', 'human'],
    ['I want to speak to someone', 'human'],
    ['can I talk to a real person', 'human'],
    ['support', 'human'],
    ['Talk to live support', 'human', { questionId: 3 }],
    ['live chat please', 'human'],
    ['es:quiero hablar con un agente', 'human'],
    ['es:representante', 'human'],
    // greetings and thanks
    ['hi', 'greeting'],
    ['Hello!', 'greeting'],
    ['hey there', 'greeting'],
    ['good evening', 'greeting'],
    ['es:hola', 'greeting'],
    ['es:buenos días', 'greeting'],
    ['thanks', 'thanks'],
    ['thank you so much', 'thanks'],
    ['ok cool', 'thanks'],
    ['great, thanks!', 'thanks'],
    ['es:gracias', 'thanks'],
    // changes of mind
    ['never mind', 'cancel'],
    ['cancel', 'cancel'],
    ['forget it', 'cancel'],
    ['es:nada', 'cancel'],
    // nothing to act on
    ['asdfgh', 'garbage'],
    ['???', 'garbage'],
    ['lol', 'garbage'],
    ['123456', 'garbage'],
    ['😀👍', 'garbage'],
    ['jkjkjk', 'garbage'],
    ['zzzz', 'garbage']
];

function run(step: DecisionStep, script: Script): void {
    for (const [line, kind, extra] of script) {
        const spanish = line.startsWith('es:');
        const text = spanish ? line.slice(3) : line;
        it(`${spanish ? '(es) ' : ''}"${text}" → ${kind}`, () => {
            const decision = decideFor(step, text, spanish ? 'es' : 'en');
            expect(decision.kind, JSON.stringify(decision)).to.equal(kind);
            for (const [key, value] of Object.entries(extra ?? {})) {
                expect((decision as unknown as Record<string, unknown>)[key], `${key} of ${JSON.stringify(decision)}`).to.deep.equal(value);
            }
            expect(decision.lang).to.equal(spanish ? 'es' : 'en');
        });
    }
}

describe('the widget\'s message decision (plugins/conversation, issue 23)', function () {
    it('has at least 60 scripted messages for every step', () => {
        expect(IDENTIFIER.length).to.be.at.least(60);
        expect(CODE.length).to.be.at.least(60);
        expect(FREE.length).to.be.at.least(60);
    });

    describe('in the phone step (identifier)', () => run('identifier', IDENTIFIER));
    describe('in the code step', () => run('code', CODE));
    for (const step of ['questions', 'initial', 'success', 'ai'] as const) {
        describe(`in the ${step} step`, () => run(step, FREE));
    }

    describe('its parts', () => {
        it('finds a national number in the store\'s country and an international one anywhere', () => {
            expect(findPhone('mi número es 612 34 56 78', 'ES')?.number).to.equal('+34612345678');
            expect(findPhone('mi número es 612 34 56 78', 'US')).to.equal(null);
            expect(findPhone('my number is +34 612 34 56 78', 'US')?.number).to.equal('+34612345678');
            expect(findPhone('my number is 020 7946 0958', 'GB')?.number).to.equal('+442079460958');
            expect(findPhone('no number here', 'US')).to.equal(null);
            expect(findPhone('never mind what are', 'US')).to.equal(null);
            expect(findPhone('555-555-0100', 'XX')?.number, 'an unknown country reads as US').to.equal('+15555550100');
        });

        it('takes six digits standing alone as a code, never six digits of a phone number', () => {
            expect(findCode('555 555 0100')).to.equal(null);
            expect(findCode('code 123456 please')).to.equal('123456');
            expect(findCode('1234567')).to.equal(null);
            expect(findCode('12345')).to.equal(null);
        });

        it('reads the Spanish store\'s national numbers in the phone step', () => {
            expect(decide({ step: 'identifier', text: 'es el 612 34 56 78', lang: 'es', country: 'ES' })).to.include({ kind: 'phone', phone: '+34612345678' });
        });

        it('asks the knowledge about the message without the change of mind before it', () => {
            expect(topicOf('never mind, what are your store hours?')).to.equal('what are your store hours?');
            expect(topicOf('Hi! ok so, can I pay with Apple Pay?')).to.equal('can I pay with Apple Pay?');
            expect(topicOf('olvídalo, ¿cuál es el horario?', 'es')).to.equal('¿cuál es el horario?');
            expect(topicOf('never mind')).to.equal('');
        });

        it('keeps "and", "but", "also" before the question: the AI agent reads a follow-up by them, and the words stay the customer\'s', () => {
            expect(topicOf('and to Canada?')).to.equal('and to Canada?');
            expect(topicOf('ok, and what about returns?')).to.equal('and what about returns?');
            expect(topicOf('never mind, but can I pay in store?')).to.equal('but can I pay in store?');
            expect(topicOf('¿y a Canadá?', 'es')).to.equal('¿y a Canadá?');
            expect(topicOf('et le dimanche ?', 'fr')).to.equal('et le dimanche ?');
            // The decision still reads past them: a question, asked of the knowledge with them.
            expect(decide({ step: 'questions', text: 'and can I pay with Apple Pay' })).to.include({ kind: 'question', question: 'and can I pay with Apple Pay' });
            expect(decide({ step: 'questions', text: 'und' , lang: 'de' }).kind).to.not.equal('question');
        });

        it('falls back to English words for a language it has none of (es-MX reads Spanish)', () => {
            expect(decide({ step: 'questions', text: 'agent', lang: 'it' })).to.include({ kind: 'human', lang: 'en' });
            // The word each language's widget text tells a customer to type for a person (issue 27).
            expect(decide({ step: 'questions', text: 'conseiller', lang: 'fr-CA' })).to.include({ kind: 'human', lang: 'fr' });
            expect(decide({ step: 'questions', text: 'Mitarbeiter', lang: 'de' })).to.include({ kind: 'human', lang: 'de' });
            expect(decide({ step: 'questions', text: 'atendente', lang: 'pt-BR' })).to.include({ kind: 'human', lang: 'pt-BR' });
            expect(decide({ step: 'questions', text: 'موظف', lang: 'ar' })).to.include({ kind: 'human', lang: 'ar' });
            expect(decide({ step: 'code', text: 'je nai pas reçu le code', lang: 'fr' })).to.include({ kind: 'resend' });
            expect(decide({ step: 'questions', text: 'hola', lang: 'es-MX' })).to.include({ kind: 'greeting', lang: 'es' });
        });

        it('without the store\'s knowledge (AI off), keywords still tell points from questions about points', () => {
            const plain = (step: DecisionStep, text: string) => decide({ step, text, lang: 'en', country: 'US' }).kind;
            expect(plain('questions', 'when do my points expire')).to.equal('question');
            expect(plain('questions', 'how many points do I have')).to.equal('points');
            expect(plain('identifier', 'can I pay with apple')).to.equal('question');
            expect(plain('identifier', 'do you support apple pay?')).to.equal('human');
        });
    });
});
