import { describe, expect, it } from 'vitest';
import { parsePage, type EntryMaker } from './s3-listing.ts';

const plain: EntryMaker<string> = {
  folder: (p) => `dir ${p}`,
  object: (key, size, lastModified, etag) => `${key} ${size} ${lastModified} ${etag}`,
};

describe('parsePage (ListObjectsV2 answer)', () => {
  it('reads folders first, then objects, with entities decoded, and the next token when truncated', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
<Name>b</Name><Prefix></Prefix><MaxKeys>3</MaxKeys><Delimiter>/</Delimiter><IsTruncated>true</IsTruncated>
<Contents><Key>a &amp; &lt;b&gt; &#233;&#x4e2d;.txt</Key><LastModified>2026-11-29T10:00:00.123Z</LastModified>
<ETag>&quot;abc&quot;</ETag><Size>12</Size><StorageClass>STANDARD</StorageClass></Contents>
<CommonPrefixes><Prefix>docs/</Prefix></CommonPrefixes>
<NextContinuationToken>tok&amp;1</NextContinuationToken><KeyCount>2</KeyCount></ListBucketResult>`;
    expect(parsePage(xml, plain)).toEqual({
      items: ['dir docs/', 'a & <b> é中.txt 12 2026-11-29T10:00:00.123Z "abc"'],
      nextToken: 'tok&1',
    });
  });

  it('answers no token at the end, and no items for an empty page', () => {
    const xml =
      '<ListBucketResult><IsTruncated>false</IsTruncated><NextContinuationToken>x</NextContinuationToken></ListBucketResult>';
    expect(parsePage(xml, plain)).toEqual({ items: [], nextToken: null });
  });
});
