import { expect } from 'chai';
import Knex, { Knex as KnexTypes } from 'knex';
import { Model } from '../../core/db/model';
import { sleep } from '../helpers/wait';

class Gadget extends Model {
    static override tableName = 'gadgets';
    static override booleanAttributes = ['isOn'];
    static override jsonAttributes = ['settings'];
    static override timestamps = { created: true, updated: true };
    id!: number;
    organizationId!: number;
    isOn!: boolean;
    settings!: { colour: string } | null;
    createdAt!: number;
    updatedAt!: number;
}

/** The base model: camelCase properties over snake_case columns, real booleans and JSON, timestamps by hooks. */
describe('the base model', () => {
    let knex: KnexTypes;

    before(async () => {
        knex = Knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
        await knex.schema.createTable('gadgets', (t) => {
            t.increments('id');
            t.integer('organization_id').notNullable();
            t.boolean('is_on').notNullable();
            t.text('settings').nullable();
            t.bigInteger('created_at').notNullable();
            t.bigInteger('updated_at').notNullable();
        });
    });
    after(async () => {
        await knex.destroy();
    });

    it('stores camelCase properties in snake_case columns and reads booleans and JSON back as such', async () => {
        const made = await Gadget.query(knex).insertAndFetch({ organizationId: 7, isOn: true, settings: { colour: 'blue' } });
        expect(made).to.include({ organizationId: 7, isOn: true });
        expect(made.settings).to.deep.equal({ colour: 'blue' });
        const raw = await knex('gadgets').where('id', made.id).first();
        expect(raw).to.include({ organization_id: 7, is_on: 1 });
        expect(JSON.parse(raw.settings)).to.deep.equal({ colour: 'blue' });
    });

    it('sets createdAt and updatedAt on insert, and updatedAt alone on a patch', async () => {
        const before = Date.now();
        const made = await Gadget.query(knex).insertAndFetch({ organizationId: 1, isOn: false, settings: null });
        expect(made.createdAt).to.be.within(before, Date.now());
        expect(made.updatedAt).to.equal(made.createdAt);
        await sleep(5);
        const patched = await Gadget.query(knex).patchAndFetchById(made.id, { isOn: true });
        expect(patched.isOn).to.equal(true);
        expect(patched.createdAt).to.equal(made.createdAt);
        expect(patched.updatedAt).to.be.above(made.updatedAt);
    });

    it('throws objection\'s NotFoundError with the given message for a missing row', async () => {
        const err = await Gadget.query(knex).findById(999).throwIfNotFound({ message: 'Gadget not found' }).catch((e) => e);
        expect(err.name).to.equal('NotFoundError');
        expect(err.message).to.equal('Gadget not found');
    });
});
