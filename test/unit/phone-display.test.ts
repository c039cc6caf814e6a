import { expect } from 'chai';
import { formatPhone } from '../../core/shared/phone-display';
import { visitorLabel, visitorNumber } from '../../core/shared/visitor';

describe('how staff screens show a phone (core/shared/phone-display.ts, issue 23)', function () {
    it('shows a number of the store\'s country in its national format, the stored E.164 unchanged', function () {
        expect(formatPhone('+15555550100', 'US')).to.equal('(555) 555-0100');
        expect(formatPhone('+12125550123', 'US')).to.equal('(212) 555-0123');
        expect(formatPhone('+34612345678', 'ES')).to.equal('612 34 56 78');
        expect(formatPhone('+447700900123', 'GB')).to.equal('07700 900123');
    });

    it('shows a number of another country in international format', function () {
        expect(formatPhone('+34612345678', 'US')).to.equal('+34 612 34 56 78');
        expect(formatPhone('+15555550100', 'ES')).to.equal('+1 555 555 0100');
    });

    it('reads the store\'s country case-insensitively, US when none, and any unknown country as "not ours"', function () {
        expect(formatPhone('+15555550100', 'us')).to.equal('(555) 555-0100');
        expect(formatPhone('+15555550100', null)).to.equal('(555) 555-0100');
        expect(formatPhone('+15555550100', 'ZZ')).to.equal('+1 555 555 0100');
    });

    it('answers what is not an E.164 number as it is, and nothing as null', function () {
        expect(formatPhone('Unknown', 'US')).to.equal('Unknown');
        expect(formatPhone('+999', 'US')).to.equal('+999');
        expect(formatPhone('', 'US')).to.equal(null);
        expect(formatPhone(null, 'US')).to.equal(null);
        expect(formatPhone(undefined, 'US')).to.equal(null);
    });
});

describe('the visitor label of a customer without a phone (core/shared/visitor.ts, issue 23)', function () {
    it('is a number from 1000 to 9999, the same for a widget session\'s later chats (…~N)', function () {
        const n = visitorNumber('widget_1700000000000_AbCdEfGhIjKlMnOp');
        expect(n).to.be.within(1000, 9999);
        expect(visitorNumber('widget_1700000000000_AbCdEfGhIjKlMnOp~2')).to.equal(n);
        expect(visitorNumber('widget_1700000000000_AbCdEfGhIjKlMnOp~17')).to.equal(n);
        expect(visitorLabel('widget_1700000000000_AbCdEfGhIjKlMnOp')).to.equal(`Visitor ${n}`);
    });

    it('differs between sessions (few collisions over many visitors)', function () {
        expect(visitorNumber('widget_1700000000001_QrStUvWxYz012345')).to.not.equal(visitorNumber('widget_1700000000000_AbCdEfGhIjKlMnOp'));
        const seen = new Set<number>();
        for (let i = 0; i < 200; i += 1) {
            seen.add(visitorNumber(`widget_${1700000000000 + i}_${(i * 7919).toString(36).padStart(16, 'x')}`));
        }
        expect(seen.size, '200 visitors, at most a few sharing a number').to.be.greaterThan(190);
    });
});
