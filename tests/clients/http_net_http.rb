# A POS in Ruby with the standard library only: Net::HTTP.post(uri, order.to_json, headers),
# symbols as keys, Time.now.iso8601 (the local offset, "-06:00"), to_json's own output (UTF-8 as
# it is, floats as 12.5). usage: ruby http_net_http.rb BASE_URL TOKEN ORDER_ID
# Prints one JSON object per request: {"step", "status", "body"}.
require 'json'
require 'net/http'
require 'time'

base, token, id = ARGV
HEADERS = {
  'Content-Type' => 'application/json',
  'x-integration-token' => token,
  'x-location-id' => 'loc-1',
  'x-device-ids' => 'kds-1'
}.freeze

def report(step, res)
  body = res.body.to_s.empty? ? nil : JSON.parse(res.body)
  puts({ step: step, status: res.code.to_i, body: body }.to_json)
end

def post(step, uri, order)
  report(step, Net::HTTP.post(uri, order.to_json, HEADERS))
end

def put(step, uri, order)
  Net::HTTP.start(uri.host, uri.port) do |http|
    report(step, http.put(uri.path, order.to_json, HEADERS))
  end
end

orders = URI.join(base, 'integrators/kds-orders')
now = Time.now
puts({ step: 'time', sent: now.iso8601, epoch: now.to_i }.to_json)
order = {
  id: id,
  name: 'José 😀 Müller',
  time: now.iso8601,
  mode: 'Delivery',
  deliveryHandoff: nil,
  deliveryService: { name: 'Rápido', orderId: 'R-77', driverPhone: nil },
  costs: { subtotal: '$21.00', tip: nil, total: '$23.10' },
  items: [
    { lineId: '1', name: 'Bratwurst', qty: 2, mods: [{ name: 'Senf', qty: 1 }, { name: 'Sauerkraut' }], price: '€9.00' },
    { lineId: '2', name: 'Brezel 🥨', qty: 1, mods: [], specialInstructions: 'x' * 20_000 }
  ]
}
post('create', orders, order)
post('duplicate', orders, order)
# A Time object put in the hash as it is: without ActiveSupport, to_json writes Time#to_s,
# "2026-11-26 09:40:00 -0600".
post('time-object', orders, order.merge(id: "#{id}-t", time: now))
# A price kept as a Float.
post('price-float', orders, order.merge(id: "#{id}-f", items: [order[:items][0].merge(price: 12.5)]))
partial = URI.join(base, 'integrators/kds-orders/partial')
# Only what changed: an item to update without its name (the contract's KdsItem needs one).
put('partial-short', partial, { id: id, itemsToUpdate: [{ lineId: '1', qty: 3 }] })
put('partial', partial,
    { id: id, itemsToUpdate: [{ lineId: '1', name: 'Bratwurst', qty: 3, mods: [] }], itemsToRemove: ['2'] })
report('active', Net::HTTP.get_response(URI.join(base, 'integrators/kds-orders/active'), HEADERS))
