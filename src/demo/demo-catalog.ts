/**
 * The demo catalog loaded at first start (SIFT_DEMO): a small, deterministic shop with products in
 * a category tree, brands, prices, colours, availability, variants, plus category, brand and
 * query objects, so that every endpoint has something real to show. Generated, not shipped data.
 */
import type { CatalogObject, Fields, NestedObject } from '../shared/catalog-object.ts'
import { seededRandom as seeded } from '../shared/random.ts'

export const DEMO_TRACKER_ID = 'demo'

interface Line {
  path: [string, string, string]
  brands: string[]
  names: string[]
  priceRange: [number, number]
  extras: (rand: () => number) => Fields
}

const COLORS = ['Black', 'White', 'Silver', 'Blue', 'Red', 'Green', 'Graphite', 'Rose Gold']

const LINES: Line[] = [
  { path: ['Electronics', 'Phones', 'Smartphones'], brands: ['Samsung', 'Apple', 'Xiaomi', 'Motorola'], names: ['Galaxy S23 5G 256GB', 'iPhone 15 128GB', 'Redmi Note 13 Pro', 'Moto G84 5G'], priceRange: [199, 1199], extras: (r) => ({ storage_gb: [64, 128, 256, 512][Math.floor(r() * 4)]! }) },
  { path: ['Electronics', 'Computers', 'Laptops'], brands: ['Lenovo', 'Dell', 'HP', 'Asus'], names: ['ThinkPad X1 Carbon i7-1365U', 'XPS 13 OLED', 'EliteBook 840 G10', 'ZenBook 14 UX3402'], priceRange: [599, 2499], extras: (r) => ({ ram_gb: [8, 16, 32][Math.floor(r() * 3)]! }) },
  { path: ['Electronics', 'Computers', 'Graphics Cards'], brands: ['MSI', 'Gigabyte', 'Asus'], names: ['GeForce RTX-4090 Gaming X', 'GeForce RTX-4070 Super', 'Radeon RX 7800 XT'], priceRange: [499, 1999], extras: () => ({}) },
  { path: ['Electronics', 'Audio', 'Headphones'], brands: ['Sony', 'Bose', 'Sennheiser', 'JBL'], names: ['WH-1000XM5 Wireless Noise Cancelling', 'QuietComfort Ultra', 'Momentum 4 Wireless', 'Tune 760NC'], priceRange: [59, 449], extras: (r) => ({ wireless: r() > 0.2 }) },
  { path: ['Apparel', 'Men', 'T-shirts'], brands: ['Levi\'s', 'Nike', 'Adidas', 'Uniqlo'], names: ['Classic Crew Neck Tee', 'Dri-FIT Running Shirt', 'Essentials Logo T-shirt', 'Supima Cotton T-shirt'], priceRange: [9, 45], extras: (r) => ({ material: r() > 0.5 ? 'Cotton' : 'Polyester' }) },
  { path: ['Apparel', 'Women', 'Shoes'], brands: ['Nike', 'Adidas', 'Puma', 'New Balance'], names: ['Air Zoom Pegasus Running Shoes', 'Ultraboost Light Sneakers', 'Suede Classic Sneakers', 'Fresh Foam 1080 Running Shoes'], priceRange: [49, 189], extras: () => ({}) },
  { path: ['Grocery', 'Dairy', 'Milk'], brands: ['Madeta', 'Olma', 'Kunín'], names: ['Čerstvé mléko plnotučné 1 l', 'Trvanlivé mléko polotučné 1,5 %', 'Bio kozí mléko 0,5 l'], priceRange: [1, 4], extras: () => ({ unit: 'l' }) },
  { path: ['Grocery', 'Bakery', 'Bread'], brands: ['Penam', 'Odkolek'], names: ['Šumava chléb krájený 1 kg', 'Celozrnný toustový chléb', 'Kváskový žitný chléb'], priceRange: [1, 5], extras: () => ({}) },
]

function slug(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

function categoryObject(path: string[], depth: number): NestedObject {
  const title = path[depth]!
  const ancestors = path.slice(0, depth).map((t, i) => ({ type: 'category', identity: `category-${slug(path.slice(0, i + 1).join(' '))}`, fields: { title: t } }))
  return { type: 'category', identity: `category-${slug(path.slice(0, depth + 1).join(' '))}`, fields: { title, ancestors } }
}

/** The demo objects: about 200 items plus their categories, brands and popular queries. */
export function demoCatalog(now = new Date('2026-01-01T00:00:00Z')): CatalogObject[] {
  const rand = seeded(42)
  const updatedAt = now.toISOString()
  const objects: CatalogObject[] = []
  const brands = new Set<string>()
  const categories = new Map<string, NestedObject>()
  let n = 0
  for (const line of LINES) {
    const leaf = categoryObject(line.path, 2)
    for (let d = 0; d < 3; d++) {
      const category = categoryObject(line.path, d)
      categories.set(category.identity, category)
    }
    for (let copy = 0; copy < 25; copy++) {
      // Names and brands are listed in matching order, so a product line keeps its maker.
      const k = (copy + Math.floor(rand() * 2)) % line.names.length
      const name = line.names[k]!
      const brand = line.brands[k % line.brands.length]!
      const color = COLORS[Math.floor(rand() * COLORS.length)]!
      const [lo, hi] = line.priceRange
      const price = Math.round((lo + rand() * (hi - lo)) * 100) / 100
      const id = `P${String(++n).padStart(4, '0')}`
      brands.add(brand)
      const fields: Fields = {
        title: `${brand} ${name} ${color}`,
        web_url: `https://demo.shop.example/p/${id.toLowerCase()}`,
        image_link: `https://demo.shop.example/img/${id.toLowerCase()}.jpg`,
        brand,
        color,
        price,
        availability: rand() > 0.15 ? 1 : 0,
        rating: Math.round((3 + rand() * 2) * 10) / 10,
        description: `${name} by ${brand} in ${color.toLowerCase()}. ${line.path.join(' > ')}.`,
        launched_at: new Date(now.getTime() - Math.floor(rand() * 720) * 86_400_000).toISOString(),
        ...line.extras(rand),
      }
      objects.push({ identity: id, type: 'item', generation: null, activeFrom: null, activeTo: null, fields, nested: [leaf], updatedAt })
    }
  }
  for (const category of categories.values()) {
    objects.push({ identity: category.identity, type: 'category', generation: null, activeFrom: null, activeTo: null, fields: category.fields, nested: [], updatedAt })
  }
  for (const brand of brands) {
    objects.push({ identity: `brand-${slug(brand)}`, type: 'brand', generation: null, activeFrom: null, activeTo: null, fields: { title: brand }, nested: [], updatedAt })
  }
  for (const query of ['iphone', 'running shoes', 'wireless headphones', 'laptop', 'rtx 4090', 'mléko', 't-shirt']) {
    objects.push({ identity: `query-${slug(query)}`, type: 'query', generation: null, activeFrom: null, activeTo: null, fields: { title: query }, nested: [], updatedAt })
  }
  return objects
}
