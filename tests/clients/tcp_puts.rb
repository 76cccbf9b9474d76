# A POS in Ruby on the screen's TCP port: one TCPSocket kept open, puts (a newline after each
# object), gets for each reply line. Symbols as keys, time as integer milliseconds.
# usage: ruby tcp_puts.rb HOST PORT ORDER_ID
# Prints one JSON object: {"replies": [...], "sent": ms}.
require 'json'
require 'socket'
require 'timeout'

host, port, id = ARGV
ms = (Time.now.to_f * 1000).to_i
replies = []
TCPSocket.open(host, port.to_i) do |sock|
  say = lambda do |message|
    sock.puts(message.to_json)
    replies << Timeout.timeout(10) { sock.gets }
  end
  say.call(command: 'create-order',
           order: { id: id, name: 'Ruby ✓ 🍣', time: ms, mode: 'Curbside', vehicleModel: 'Škoda Octavia',
                    vehicleColor: nil, items: [{ lineId: 'a', name: 'Sushi', qty: 12, mods: ['Wasabi'] }] })
  say.call(command: 'update-order',
           order: { id: id, name: 'Ruby ✓ 🍣', time: ms, mode: 'Curbside',
                    items: [{ lineId: 'a', name: 'Sushi', qty: 12, mods: [] }, { lineId: 'b', name: 'Miso', qty: 1, mods: [] }] })
  # A symbol value: to_json writes :Pickup as "Pickup".
  say.call(command: 'create-order', order: { id: "#{id}-sym", name: 'Sym', time: ms, mode: :Pickup, items: [] })
  say.call(command: 'cancel-order', order: { id: "#{id}-none" })
end
puts({ replies: replies, sent: ms }.to_json)
